import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, MeResponse } from '@rm/contracts';
import type { GatewayDeps } from '../deps.js';
import { describeKey } from '../use-cases/describe-key.js';

/** GET /v1/me: any valid key may ask who it is (no permission needed). */
export function meRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/me',
      { schema: { response: { 200: MeResponse, 401: ErrorResponse, 429: ErrorResponse, 500: ErrorResponse } } },
      async (req) => describeKey(deps.store, req.apiKey),
    );
  };
}
