import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { AppError, type Permission } from '@rm/contracts';
import { parseAuthorization, secretMatches } from '@rm/runtime';
import type { ApiKeyRecord } from '@rm/storage';
import type { ReportGuard } from '@rm/report-guard';
import { rateLimited } from '../errors/refusals.js';
import { orUnavailable } from '../errors/unavailable.js';
import { keyHasPermission } from '../use-cases/key-permissions.js';
import { ApiKeyCache } from './api-key-cache.js';
import type { StaffSignIn } from '../staff/staff-sign-in.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The permission a key needs for this route. */
    permission?: Permission;
    /** Only admin keys may call this route: checked with the key, before the request is validated. */
    adminOnly?: boolean;
    /** The route's use case counts the rate limit itself, inside its one Redis round trip. */
    ratedByUseCase?: boolean;
  }
  interface FastifyRequest {
    apiKey: ApiKeyRecord;
  }
}

/**
 * Longest key id and secret we issue, with room to spare (`rk_` + 24 hex digits, 43 base64url
 * characters): anything longer cannot match, so it is refused without a storage read.
 */
const MAX_KEY_LENGTH = 64;
const MAX_SECRET_LENGTH = 128;

/** The key of a header, from the cache when it was verified within the TTL. */
export async function authenticate(cache: ApiKeyCache, header: string | undefined): Promise<ApiKeyRecord> {
  return cache.known(header) ?? verify(cache, header);
}

/** Checks a header not in the cache against the stored key, and remembers it when it matches. */
async function verify(cache: ApiKeyCache, header: string | undefined): Promise<ApiKeyRecord> {
  const credentials = parseAuthorization(header);
  if (!credentials) throw new AppError('UNAUTHORIZED', 'Missing or malformed Authorization header: expected <API_KEY>:<API_SECRET>');
  if (credentials.key.length > MAX_KEY_LENGTH || credentials.secret.length > MAX_SECRET_LENGTH) {
    throw new AppError('UNAUTHORIZED', 'Invalid API key or secret');
  }
  const key = await cache.load(credentials.key);
  if (!key || key.revokedAt !== null || !secretMatches(credentials.secret, key.secretHash)) {
    throw new AppError('UNAUTHORIZED', 'Invalid API key or secret');
  }
  cache.remember(header!, key);
  return key;
}

/**
 * Authenticates every request of the routes registered after it, then checks permission and rate.
 * Each route gets a hook of its own with its permission bound, and a known key with no rate limit
 * is admitted without a promise: this runs before every API request. A request with no
 * Authorization header but a staff session cookie acts as that signed-in person (`staff`).
 */
export function installAuth(app: FastifyInstance, cache: ApiKeyCache, guard: ReportGuard, staff: StaffSignIn | null): void {
  app.decorateRequest('apiKey', null as unknown as ApiKeyRecord);
  app.addHook('onRoute', (route) => {
    const hook = authHook(cache, guard, staff, route.config?.permission, route.config?.ratedByUseCase ?? false, route.config?.adminOnly ? `${route.method} ${route.url}` : undefined);
    route.onRequest = [hook, ...[route.onRequest ?? []].flat()];
  });
}

/** `adminRoute`: the route's name when only admin keys may call it. */
function authHook(cache: ApiKeyCache, guard: ReportGuard, staff: StaffSignIn | null, permission: Permission | undefined, ratedByUseCase: boolean, adminRoute: string | undefined): onRequestHookHandler {
  /** Admits the key, or throws; a promise only when the rate limit needs Redis. */
  const admit = (request: FastifyRequest, key: ApiKeyRecord): Promise<void> | undefined => {
    if (permission && !keyHasPermission(key, permission)) {
      throw new AppError('FORBIDDEN', `${key.key.startsWith('staff:') ? 'Your roles lack' : 'This API key lacks'} the ${permission} permission`);
    }
    if (adminRoute && !key.admin) throw new AppError('FORBIDDEN', `${adminRoute} needs an admin API key`);
    request.apiKey = key;
    const limit = key.rateLimit ?? 0;
    if (ratedByUseCase || limit <= 0) return undefined;
    return orUnavailable('Redis', () => guard.withinRate(key.key, limit)).then((within) => {
      if (!within) throw rateLimited(limit);
    });
  };
  return (request, _reply, done) => {
    try {
      const header = request.headers.authorization;
      const known = cache.known(header);
      const pending = known
        ? admit(request, known)
        : header === undefined && staff?.carriesSession(request)
          ? orUnavailable('Redis', () => staff.principal(request)).then((person) => admit(request, person))
          : verify(cache, header).then((key) => admit(request, key));
      if (pending) pending.then(() => done(), done);
      else done();
    } catch (err) {
      done(err as Error);
    }
  };
}
