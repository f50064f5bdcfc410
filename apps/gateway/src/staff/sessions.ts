import { createHash, randomBytes } from 'node:crypto';
import type { Permission } from '@rm/contracts';
import type { Redis } from '@rm/runtime';

/** A person signed in through the identity provider: what the session cookie stands for. */
export interface StaffSession {
  /** The provider's subject: who this is there. */
  subject: string;
  moderatorId: string;
  name: string;
  permissions: Permission[];
  admin: boolean;
  roles: string[];
  /** Sent back by the console on every state-changing call (the CSRF check). */
  csrfToken: string;
  createdAt: number;
  /** When the session was last used (its idle limit counts from here). */
  seenAt: number;
  /** When the provider last confirmed the person and their groups. */
  checkedAt: number;
  /** For re-checking with the provider and signing out there; never sent to the browser. */
  tokens: { refresh?: string; access?: string; idToken?: string };
}

/** A sign-in under way: what the callback must find to accept the provider's answer. */
export interface PendingSignIn {
  nonce: string;
  codeVerifier: string;
  /** The console page to return to. */
  returnTo: string;
}

export interface SessionLimits {
  idleMs: number;
  maxAgeMs: number;
}

/** A new random value for a cookie, a state or a CSRF token. */
export const randomToken = () => randomBytes(32).toString('base64url');

/** Redis keeps a hash of each cookie value, never the value: a copy of Redis signs nobody in. */
const digest = (value: string) => createHash('sha256').update(value).digest('base64url');

/** How long a sign-in may take at the provider before its callback is refused. */
export const SIGN_IN_TTL_MS = 10 * 60_000;

/** Seen-times are written at most this often (or a quarter of the idle limit): one Redis write a minute, not one a request. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Staff sessions and sign-ins under way, in Redis so that every gateway replica knows them and a
 * restart signs nobody out. Each key expires with its idle limit (or its absolute end, if sooner).
 */
export class StaffSessions {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    readonly limits: SessionLimits,
  ) {}

  private sessionKey = (id: string) => `${this.prefix}:staff:session:${digest(id)}`;
  private signInKey = (state: string) => `${this.prefix}:staff:signin:${digest(state)}`;

  async beginSignIn(state: string, pending: PendingSignIn): Promise<void> {
    await this.redis.set(this.signInKey(state), JSON.stringify(pending), 'PX', SIGN_IN_TTL_MS);
  }

  /** The sign-in `state` began, once: a replayed callback finds nothing. */
  async takeSignIn(state: string): Promise<PendingSignIn | null> {
    const raw = await this.redis.getdel(this.signInKey(state));
    return raw ? (JSON.parse(raw) as PendingSignIn) : null;
  }

  /** Stores a new session and answers its cookie value. */
  async create(session: StaffSession): Promise<string> {
    const id = randomToken();
    await this.write(id, session);
    return id;
  }

  /**
   * The session a cookie names, if it is still within its limits; its seen-time is moved on when
   * due. An expired one is deleted.
   */
  async find(id: string, now: number): Promise<StaffSession | null> {
    const raw = await this.redis.get(this.sessionKey(id));
    if (!raw) return null;
    const session = JSON.parse(raw) as StaffSession;
    if (now - session.createdAt >= this.limits.maxAgeMs || now - session.seenAt >= this.limits.idleMs) {
      await this.end(id);
      return null;
    }
    if (now - session.seenAt >= Math.min(TOUCH_EVERY_MS, this.limits.idleMs / 4)) await this.write(id, { ...session, seenAt: now }, 'XX');
    return session;
  }

  /** Replaces a session's contents (after the provider re-checked it), if it still exists. */
  async update(id: string, session: StaffSession): Promise<void> {
    await this.write(id, session, 'XX');
  }

  async end(id: string): Promise<void> {
    await this.redis.del(this.sessionKey(id));
  }

  /** One replica re-checks a session with the provider at a time; the others go on meanwhile. */
  async claimRecheck(id: string, forMs: number): Promise<boolean> {
    return (await this.redis.set(`${this.sessionKey(id)}:recheck`, '1', 'PX', forMs, 'NX')) === 'OK';
  }

  private async write(id: string, session: StaffSession, mode?: 'XX'): Promise<void> {
    const ttl = Math.max(1, Math.min(session.seenAt + this.limits.idleMs, session.createdAt + this.limits.maxAgeMs) - Date.now());
    const key = this.sessionKey(id);
    const value = JSON.stringify(session);
    if (mode) await this.redis.set(key, value, 'PX', ttl, mode);
    else await this.redis.set(key, value, 'PX', ttl);
  }
}
