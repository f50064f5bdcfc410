/**
 * The signed-in credential lives in this tab's sessionStorage only: it is gone when the tab
 * closes, never written to a URL, a cookie, localStorage or a log.
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
