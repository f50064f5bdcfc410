/**
 * How this tab is signed in. With the studio's identity provider (`oidc`) the browser holds only
 * the gateway's HttpOnly session cookie; the CSRF token the gateway gave for it lives in this
 * module's memory, never in storage. With a key (local use), the key and secret live in this tab's
 * sessionStorage only: gone when the tab closes, never written to a URL, a cookie, localStorage or
 * a log.
 */
export interface Credential {
  key: string;
  secret: string;
}

const SLOT = 'rm-console-credential';

export function loadCredential(): Credential | null {
  try {
    const raw = sessionStorage.getItem(SLOT);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Credential>;
    return typeof parsed.key === 'string' && typeof parsed.secret === 'string' ? { key: parsed.key, secret: parsed.secret } : null;
  } catch {
    return null;
  }
}

export function saveCredential(credential: Credential): void {
  sessionStorage.setItem(SLOT, JSON.stringify(credential));
}

export function clearCredential(): void {
  sessionStorage.removeItem(SLOT);
}

/** The signed-in person's CSRF token (identity provider sign-in), sent back on every state-changing call. */
let csrfToken: string | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** The headers that prove who this tab is: the key, or the CSRF token beside the session cookie for a change. */
export function authHeaders(method: string): Record<string, string> {
  const credential = loadCredential();
  if (credential) return { authorization: `${credential.key}:${credential.secret}` };
  return csrfToken && !['GET', 'HEAD'].includes(method.toUpperCase()) ? { 'x-csrf-token': csrfToken } : {};
}

/** Called when the server says the session ended (an answer 401 to a signed-in call). */
let onEnded: (() => void) | null = null;

export function whenSessionEnds(listener: (() => void) | null): void {
  onEnded = listener;
}

export function sessionEnded(): void {
  onEnded?.();
}
