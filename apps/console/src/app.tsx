import { useEffect, useState, type FormEvent } from 'react';
import { api } from './api/client';
import type { Me } from './api/me';
import { go, hrefOf, useRoute } from './components/router';
import { AppealPage } from './pages/appeal.page';
import { AppealsPage } from './pages/appeals.page';
import { CasePage } from './pages/case.page';
import { PlayerPage } from './pages/player.page';
import { QueuePage } from './pages/queue.page';
import { ReportPage } from './pages/report.page';
import { ProviderSignInPage, SignInPage } from './pages/sign-in.page';
import { StatsPage } from './pages/stats.page';
import { clearCredential, loadCredential, setCsrfToken, whenSessionEnds } from './session/session';

/** How this console signs staff in (`oidc`: the studio's identity provider; `key`: an API key, for local use). */
type SignIn = 'oidc' | 'key';

export function App() {
  const [signIn, setSignIn] = useState<SignIn | null>(null);
  const [me, setMe] = useState<Me | null>(null);
  const [ended, setEnded] = useState(false);
  const route = useRoute();

  // The gateway says how to sign in, and who its session cookie signs in; with a key, a reload
  // within the tab keeps the moderator signed in (the credential is still in sessionStorage).
  useEffect(() => {
    void startUp()
      .then(({ signIn: how, me: who }) => {
        setSignIn(how);
        setMe(who);
      })
      .catch(() => setSignIn('key'));
  }, []);

  useEffect(() => {
    whenSessionEnds(() => {
      clearCredential();
      setCsrfToken(null);
      setEnded(true);
      setMe(null);
    });
    return () => whenSessionEnds(null);
  }, []);

  if (signIn === null) return <p className="loading">Signing in…</p>;
  if (!me) {
    return signIn === 'oidc' ? (
      <ProviderSignInPage ended={ended} />
    ) : (
      <SignInPage
        onSignedIn={(who) => {
          setEnded(false);
          setMe(who);
        }}
      />
    );
  }

  const signOut = async () => {
    clearCredential();
    if (signIn === 'key') return setMe(null);
    const { data } = await api.POST('/auth/sign-out');
    setCsrfToken(null);
    // Signed out here; the provider's own page ends its session too, then sends the browser back.
    window.location.assign(data?.redirect ?? '/console/');
  };
  return (
    <div className="shell">
      <header>
        <nav aria-label="Main">
          <a href={hrefOf({ page: 'queue' })} aria-current={route.page === 'queue' ? 'page' : undefined}>
            Queue
          </a>
          <a href={hrefOf({ page: 'appeals' })} aria-current={route.page === 'appeals' || route.page === 'appeal' ? 'page' : undefined}>
            Appeals
          </a>
          <a href={hrefOf({ page: 'stats' })} aria-current={route.page === 'stats' ? 'page' : undefined}>
            Stats
          </a>
          <PlayerSearch />
        </nav>
        <div className="who">
          {me.moderator ? (
            <span>
              Signed in as <strong>{me.moderator.username}</strong>
            </span>
          ) : (
            <span className="warn">This key is not bound to a moderator: you can look, not act</span>
          )}
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      {route.page === 'queue' && <QueuePage />}
      {route.page === 'case' && <CasePage caseId={route.caseId} me={me} />}
      {route.page === 'report' && <ReportPage reportId={route.reportId} me={me} />}
      {route.page === 'player' && <PlayerPage userId={route.userId} />}
      {route.page === 'appeals' && <AppealsPage />}
      {route.page === 'appeal' && <AppealPage appealId={route.appealId} me={me} />}
      {route.page === 'stats' && <StatsPage />}
    </div>
  );
}

function PlayerSearch() {
  const [userId, setUserId] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (userId.trim()) go({ page: 'player', userId: userId.trim() });
  };
  return (
    <form className="player-search" onSubmit={submit} role="search">
      <label htmlFor="player-id">Player id</label>
      <input id="player-id" value={userId} onChange={(e) => setUserId(e.target.value)} />
      <button type="submit">Find player</button>
    </form>
  );
}

/** How to sign in here and, when already signed in (a session cookie, or a key in this tab), who. */
async function startUp(): Promise<{ signIn: SignIn; me: Me | null }> {
  const { data: session } = await api.GET('/auth/session');
  const signIn: SignIn = session?.signIn ?? 'key';
  if (signIn === 'oidc') setCsrfToken(session?.session?.csrfToken ?? null);
  const signedIn = signIn === 'oidc' ? session?.session != null : loadCredential() !== null;
  if (!signedIn) return { signIn, me: null };
  const { data: me } = await api.GET('/v1/me');
  if (!me && signIn === 'key') clearCredential();
  return { signIn, me: me ?? null };
}
