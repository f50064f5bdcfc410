import { useState, type FormEvent } from 'react';
import { api, errorMessage } from '../api/client';
import type { Me } from '../api/me';
import { clearCredential, saveCredential } from '../session/session';
import { ErrorLine } from '../components/status';

/**
 * Sign-in through the studio's identity provider: a link to the gateway, which sends the browser
 * there and back, then home to the page it left.
 */
export function ProviderSignInPage({ ended }: { ended: boolean }) {
  const back = `${window.location.pathname}${window.location.hash}`;
  return (
    <main className="sign-in">
      <h1>Moderator console</h1>
      {ended && <p role="status">Your sign-in ended. Sign in again to go on.</p>}
      <p>
        <a className="button" href={`/auth/sign-in?return=${encodeURIComponent(back)}`}>
          Sign in with your organisation's account
        </a>
      </p>
    </main>
  );
}

/**
 * For local use, when no identity provider is set up: the moderator types their key and secret once; they are kept in this tab's sessionStorage only.
 * GET /v1/me proves them and names the moderator the key is bound to.
 */
export function SignInPage({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [key, setKey] = useState('');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    saveCredential({ key: key.trim(), secret: secret.trim() });
    try {
      const { data, error: failed, response } = await api.GET('/v1/me');
      if (!data) {
        clearCredential();
        setError(errorMessage(failed, response));
        return;
      }
      onSignedIn(data);
    } catch {
      clearCredential();
      setError('The server could not be reached');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="sign-in">
      <h1>Moderator console</h1>
      <form onSubmit={submit} autoComplete="off">
        <label htmlFor="api-key">API key</label>
        <input id="api-key" name="api-key" value={key} onChange={(e) => setKey(e.target.value)} required spellCheck={false} />
        <label htmlFor="api-secret">Secret</label>
        <input id="api-secret" name="api-secret" type="password" value={secret} onChange={(e) => setSecret(e.target.value)} required />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <ErrorLine message={error} />
      </form>
      <p className="hint">
        Use the key an operator bound to you (<code>npm run cli -- apikey create --moderator YOUR_ID ...</code>). It is kept for this browser tab
        only.
      </p>
    </main>
  );
}
