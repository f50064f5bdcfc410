import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, type Permission } from '@rm/contracts';
import { parseAuthorization, secretMatches } from '@rm/runtime';
import type { ApiKeyRecord } from '@rm/storage';
import type { ReportGuard } from '@rm/report-guard';
import { rateLimited } from '../errors/refusals.js';
import { orUnavailable } from '../errors/unavailable.js';
import { ApiKeyCache } from './api-key-cache.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The permission a key needs for this route. */
    permission?: Permission;
    /** The route's use case counts the rate limit itself, inside its one Redis round trip. */
    ratedByUseCase?: boolean;
  }
  interface FastifyRequest {
    apiKey: ApiKeyRecord;
  }
}

export function keyHasPermission(key: ApiKeyRecord, permission: Permission): boolean {
  return key.admin || key.permissions.includes(permission);
}

/**
 * Longest key id and secret we issue, with room to spare (`rk_` + 24 hex digits, 43 base64url
 * characters): anything longer cannot match, so it is refused without a storage read.
 */
const MAX_KEY_LENGTH = 64;
const MAX_SECRET_LENGTH = 128;

export async function authenticate(cache: ApiKeyCache, header: string | undefined): Promise<ApiKeyRecord> {
  const credentials = parseAuthorization(header);
  if (!credentials) throw new AppError('UNAUTHORIZED', 'Missing or malformed Authorization header: expected <API_KEY>:<API_SECRET>');
  if (credentials.key.length > MAX_KEY_LENGTH || credentials.secret.length > MAX_SECRET_LENGTH) {
    throw new AppError('UNAUTHORIZED', 'Invalid API key or secret');
  }
  const key = await cache.get(credentials.key);
  if (!key || key.revokedAt !== null || !secretMatches(credentials.secret, key.secretHash)) {
    throw new AppError('UNAUTHORIZED', 'Invalid API key or secret');
  }
  return key;
}

/** Authenticates every request of the routes it is registered with, then checks permission and rate. */
export function installAuth(app: FastifyInstance, cache: ApiKeyCache, guard: ReportGuard): void {
  app.decorateRequest('apiKey', null as unknown as ApiKeyRecord);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const key = await authenticate(cache, request.headers.authorization);
    const { permission, ratedByUseCase } = request.routeOptions.config;
    if (permission && !keyHasPermission(key, permission)) {
      throw new AppError('FORBIDDEN', `This API key lacks the ${permission} permission`);
    }
    if (!ratedByUseCase && !(await orUnavailable('Redis', () => guard.withinRate(key.key, key.rateLimit ?? 0)))) {
      throw rateLimited(key.rateLimit ?? 0);
    }
    request.apiKey = key;
  });
}
