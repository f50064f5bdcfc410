import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { z } from 'zod';
import { AppError, errorResponses, SignOutResponse, StaffSessionResponse } from '@rm/contracts';
import { orUnavailable } from '../errors/unavailable.js';
import { clearCookie, cookieOf, SESSION_COOKIE, setCookie, SIGN_IN_COOKIE } from './cookies.js';
import { signInPage } from './pages.js';
import { SIGN_IN_TTL_MS, type SessionLimits } from './sessions.js';
import { SignInRefused, type StaffSignIn } from './staff-sign-in.js';

type Deps = {
  staff: StaffSignIn | null;
  limits: SessionLimits | null;
  logger: Logger;
  /** Counts a sign-in begun from this client address; false once it began SIGN_INS_PER_MINUTE this minute. */
  admitted: (address: string) => Promise<boolean>;
};

/**
 * Sign-ins a client address may begin per minute. Each one keeps its pending state in Redis for
 * ten minutes, so without a bound anyone could fill Redis through this unauthenticated page; a
 * person needs one, and an office behind one address rarely starts thirty in a minute.
 */
export const SIGN_INS_PER_MINUTE = 30;

const CONSOLE = '/console/';
/** The page when the provider or Redis could not be reached (the cause goes to the log). */
const UNAVAILABLE = ['Sign-in is unavailable', ['The identity provider or this service could not be reached. Try again in a minute.']] as const;
const TOO_MANY = ['Too many sign-ins', ['Too many sign-ins were started from this address in the last minute. Try again in a minute.']] as const;
/**
 * Only a page of the console: a sign-in never returns the browser to another site, nor out of the
 * console by a dot segment (`..`, or `%2e%2e`, which a browser resolves the same way).
 */
const consolePage = (value: string | undefined) =>
  value && /^\/console\/[\w\-./?=&%#]*$/.test(value) && !value.includes('//') && !value.includes('..') && !/%2e/i.test(value) ? value : CONSOLE;

/**
 * Staff sign-in (docs/console.md#signing-in): `/auth/session` tells the console how to sign in and
 * who is signed in; `/auth/sign-in` and `/auth/callback` are the browser's round trip through the
 * identity provider; `/auth/sign-out` ends the session here and at the provider.
 */
export function staffRoutes(deps: Deps): FastifyPluginAsyncZod {
  const { staff, limits } = deps;
  const enabled = () => {
    if (!staff || !limits) throw new AppError('NOT_FOUND', 'Staff sign-in through an identity provider is not set up here (OIDC_ISSUER): sign in with an API key');
    return { staff, limits };
  };
  return async (app) => {
    app.get(
      '/session',
      {
        schema: {
          operationId: 'getStaffSession',
          summary: 'How staff sign in here, and the person the session cookie signs in',
          tags: ['staff'],
          response: { 200: StaffSessionResponse, ...errorResponses(false) },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        if (!staff || !limits) return { success: true as const, signIn: 'key' as const, session: null };
        const found = await orUnavailable('Redis', () => staff.sessionOf(request)).catch((err: unknown) => {
          if (err instanceof AppError && err.code === 'UNAUTHORIZED') return null;
          throw err;
        });
        if (!found) return { success: true as const, signIn: 'oidc' as const, session: null };
        const { session } = found;
        return {
          success: true as const,
          signIn: 'oidc' as const,
          session: {
            moderator: { id: session.moderatorId, username: session.name },
            roles: session.roles,
            permissions: session.permissions,
            csrfToken: session.csrfToken,
            expiresAt: session.createdAt + limits.maxAgeMs,
          },
        };
      },
    );

    app.get('/sign-in', { schema: { hide: true, querystring: z.object({ return: z.string().max(512).optional() }) } }, async (request, reply) => {
      const { staff: signIn } = enabled();
      let started: { state: string; url: URL };
      try {
        if (!(await orUnavailable('Redis', () => deps.admitted(request.ip)))) return signInPage(reply.header('retry-after', '60'), 429, ...TOO_MANY);
        started = await orUnavailable('Redis', () => signIn.begin(consolePage(request.query.return)));
      } catch (err) {
        deps.logger.warn({ err: (err as Error).message }, 'staff sign-in could not start');
        return signInPage(reply, 500, ...UNAVAILABLE);
      }
      setCookie(request, reply, SIGN_IN_COOKIE, started.state, { path: '/auth', maxAgeMs: SIGN_IN_TTL_MS });
      return reply.header('cache-control', 'no-store').redirect(started.url.href, 302);
    });

    app.get('/callback', { schema: { hide: true, querystring: z.record(z.string(), z.unknown()) } }, async (request, reply) => {
      const { staff: signIn, limits: sessionLimits } = enabled();
      const at = request.url.indexOf('?');
      const query = at < 0 ? '' : request.url.slice(at + 1);
      const state = new URLSearchParams(query).get('state') ?? undefined;
      clearCookie(request, reply, SIGN_IN_COOKIE, '/auth');
      try {
        const { sessionId, returnTo } = await signIn.complete(state, cookieOf(request, SIGN_IN_COOKIE), query);
        setCookie(request, reply, SESSION_COOKIE, sessionId, { path: '/', maxAgeMs: sessionLimits.maxAgeMs });
        return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
      } catch (err) {
        if (err instanceof SignInRefused) return signInPage(reply, err.status, err.title, err.detail);
        deps.logger.warn({ err: (err as Error).message }, 'staff sign-in could not be completed');
        return signInPage(reply, 500, ...UNAVAILABLE);
      }
    });

    app.post(
      '/sign-out',
      {
        schema: {
          operationId: 'signOutStaff',
          summary: "Ends the signed-in person's session (needs its x-csrf-token), and answers the provider's sign-out page to go to",
          tags: ['staff'],
          response: { 200: SignOutResponse, ...errorResponses(false) },
        },
      },
      async (request, reply) => {
        const { staff: signIn } = enabled();
        const providerPage = await orUnavailable('Redis', () => signIn.signOut(request));
        clearCookie(request, reply, SESSION_COOKIE, '/');
        return { success: true as const, redirect: providerPage?.href ?? CONSOLE };
      },
    );
  };
}
