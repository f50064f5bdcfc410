import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { AppError, LIMITS } from '@rm/contracts';
import type { AccountStore, ApiKeyRecord } from '@rm/storage';
import { cookieOf, SESSION_COOKIE } from './cookies.js';
import { ProviderRefusal, type IdentityProvider, type Person } from './identity-provider.js';
import type { RoleMap } from './roles.js';
import { randomToken, type PendingSignIn, type StaffSession, type StaffSessions } from './sessions.js';

/** Methods that change nothing: every other one needs the session's CSRF token. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CSRF_HEADER = 'x-csrf-token';

/** How long one replica may spend re-checking a session before another may try. */
const RECHECK_CLAIM_MS = 15_000;

/** Why a callback was refused, in words for the person who lands on it. */
export class SignInRefused extends Error {
  constructor(
    readonly status: 400 | 403 | 500,
    readonly title: string,
    readonly detail: readonly string[],
  ) {
    super(title);
  }
}

/**
 * A person's moderator id: the provider's subject, prefixed so it never meets an id an operator
 * gave a key-bound moderator, and hashed when it would not fit an id.
 */
export function moderatorIdOf(subject: string): string {
  const id = `oidc:${subject}`;
  return id.length <= LIMITS.idLength ? id : `oidc:${createHash('sha256').update(subject).digest('base64url')}`;
}

/** Compared as digests: equal lengths whatever was sent (a non-ASCII token of the right length made timingSafeEqual throw, a 500). */
const sha256 = (value: string) => createHash('sha256').update(value).digest();
const sameSecret = (given: string | undefined, expected: string) => given !== undefined && timingSafeEqual(sha256(given), sha256(expected));

/**
 * Staff sign-in through the studio's OpenID provider: begins and completes a sign-in, turns a
 * session cookie into the principal a request acts as, re-checks the person with the provider, and
 * signs out.
 */
export class StaffSignIn {
  constructor(
    private readonly provider: IdentityProvider,
    private readonly sessions: StaffSessions,
    private readonly roles: RoleMap,
    private readonly store: Pick<AccountStore, 'saveModerator'>,
    private readonly logger: Logger,
    /** How often a session's person and groups are asked of the provider again. */
    private readonly recheckMs: number,
  ) {}

  /** Starts a sign-in: the state for the browser's cookie and the provider's URL to send it to. */
  async begin(returnTo: string): Promise<{ state: string; url: URL }> {
    const state = randomToken();
    const pending: PendingSignIn = { nonce: randomToken(), codeVerifier: randomToken(), returnTo };
    const url = await this.provider.authorizationUrl(state, pending);
    await this.sessions.beginSignIn(state, pending);
    return { state, url };
  }

  /**
   * Completes a sign-in at the callback: the state must be this browser's and unused, and the
   * provider's answer must pass openid-client's checks. Answers the new session's cookie value.
   */
  async complete(state: string | undefined, browserState: string | undefined, query: string): Promise<{ sessionId: string; returnTo: string }> {
    const again = 'Start again from the moderator console.';
    if (!state || !browserState || !sameSecret(state, browserState)) {
      throw new SignInRefused(400, 'Sign-in could not be completed', ['This answer from the identity provider is not for a sign-in this browser started.', again]);
    }
    const pending = await this.sessions.takeSignIn(state);
    if (!pending) throw new SignInRefused(400, 'Sign-in could not be completed', ['This sign-in was already used, or took longer than 10 minutes.', again]);
    let person: Person;
    try {
      person = await this.provider.finish(query, state, pending);
    } catch (err) {
      if (!(err instanceof ProviderRefusal)) throw err;
      this.logger.warn({ reason: err.message }, 'staff sign-in: the identity provider\'s answer was refused');
      throw new SignInRefused(400, 'Sign-in could not be completed', ["The identity provider's answer did not pass this service's checks.", again]);
    }
    const grant = this.roles(person.groups);
    if (!grant) {
      this.logger.info({ subject: person.subject }, 'staff sign-in refused: in no mapped group');
      throw new SignInRefused(403, 'No access to the moderator console', [
        `You signed in as ${person.name}, but none of your groups at the identity provider gives access to this console.`,
        'Ask whoever runs the moderation service to add you to a group it maps to a role.',
      ]);
    }
    const now = Date.now();
    const moderatorId = moderatorIdOf(person.subject);
    await this.store.saveModerator({ id: moderatorId, username: person.name, createdAt: now });
    const session: StaffSession = {
      subject: person.subject,
      moderatorId,
      name: person.name,
      ...grant,
      csrfToken: randomToken(),
      createdAt: now,
      seenAt: now,
      checkedAt: now,
      tokens: person.tokens,
    };
    this.logger.info({ moderatorId, roles: grant.roles }, 'staff signed in');
    return { sessionId: await this.sessions.create(session), returnTo: pending.returnTo };
  }

  /** Whether the request carries a session cookie at all (a machine's request never does). */
  carriesSession(request: FastifyRequest): boolean {
    return cookieOf(request, SESSION_COOKIE) !== undefined;
  }

  /** The session the request's cookie names, if any (re-checked with the provider when due). */
  async sessionOf(request: FastifyRequest): Promise<{ id: string; session: StaffSession } | null> {
    const id = cookieOf(request, SESSION_COOKIE);
    if (!id) return null;
    const now = Date.now();
    const session = await this.sessions.find(id, now);
    if (!session) return null;
    if (now - session.checkedAt < this.recheckMs || !(await this.sessions.claimRecheck(id, RECHECK_CLAIM_MS))) return { id, session };
    return { id, session: await this.recheck(id, session, now) };
  }

  /**
   * What a request with a session cookie acts as: a principal shaped like a key bound to the
   * person's moderator record, holding their roles' permissions. A state-changing request must
   * carry the session's CSRF token. No session: an error saying to sign in.
   */
  async principal(request: FastifyRequest): Promise<ApiKeyRecord> {
    const found = await this.sessionOf(request);
    if (!found) throw new AppError('UNAUTHORIZED', 'Not signed in, or the sign-in ended: sign in again');
    const { session } = found;
    const header = request.headers[CSRF_HEADER];
    if (!SAFE_METHODS.has(request.method) && !sameSecret(typeof header === 'string' ? header : undefined, session.csrfToken)) {
      throw new AppError('FORBIDDEN', `A signed-in request that changes something must carry the session's ${CSRF_HEADER} header`);
    }
    return {
      key: `staff:${session.moderatorId}`,
      name: session.name,
      secretHash: '',
      permissions: session.permissions,
      elevated: false,
      admin: session.admin,
      rateLimit: null,
      createdAt: session.createdAt,
      revokedAt: null,
      moderatorId: session.moderatorId,
    };
  }

  /** Ends the session here and answers the provider's sign-out page to send the browser to, if it has one. */
  async signOut(request: FastifyRequest): Promise<URL | null> {
    const id = cookieOf(request, SESSION_COOKIE);
    const session = id ? await this.sessions.find(id, Date.now()) : null;
    if (!id || !session) return null;
    const header = request.headers[CSRF_HEADER];
    if (!sameSecret(typeof header === 'string' ? header : undefined, session.csrfToken)) {
      throw new AppError('FORBIDDEN', `Signing out must carry the session's ${CSRF_HEADER} header`);
    }
    await this.sessions.end(id);
    this.logger.info({ moderatorId: session.moderatorId }, 'staff signed out');
    return this.provider.endSessionUrl(session.tokens.idToken).catch(() => null);
  }

  /**
   * Asks the provider whether the person is still who they were and still in a mapped group. A
   * refusal, or no mapped group left, ends the session; a provider that cannot be reached leaves
   * it as it was, to be asked again.
   */
  private async recheck(id: string, session: StaffSession, now: number): Promise<StaffSession> {
    let person: Person;
    try {
      person = await this.provider.recheck(session);
    } catch (err) {
      if (!(err instanceof ProviderRefusal)) {
        this.logger.warn({ err: (err as Error).message, moderatorId: session.moderatorId }, 'staff session: the identity provider could not be asked again; kept until it can');
        return session;
      }
      await this.sessions.end(id);
      this.logger.info({ moderatorId: session.moderatorId, reason: err.message }, 'staff session ended: the identity provider no longer vouches for it');
      throw new AppError('UNAUTHORIZED', 'The identity provider no longer vouches for this sign-in: sign in again');
    }
    const grant = this.roles(person.groups);
    if (!grant) {
      await this.sessions.end(id);
      this.logger.info({ moderatorId: session.moderatorId }, 'staff session ended: in no mapped group any more');
      throw new AppError('UNAUTHORIZED', 'Your groups at the identity provider no longer give access to this console');
    }
    const next: StaffSession = { ...session, name: person.name, ...grant, checkedAt: now, tokens: person.tokens };
    if (person.name !== session.name) await this.store.saveModerator({ id: session.moderatorId, username: person.name, createdAt: now });
    await this.sessions.update(id, next);
    return next;
  }
}
