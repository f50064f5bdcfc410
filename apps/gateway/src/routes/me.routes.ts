import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, MeResponse } from '@rm/contracts';
import type { AccountStore } from '@rm/storage';
import { describeKey } from '../use-cases/describe-key.js';

type Deps = { store: AccountStore };

/** GET /v1/me: any valid key may ask who it is (no permission needed). */
export function meRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/me',
      {
        schema: {
          operationId: 'getMe',
          summary: 'The calling API key: its permissions and the moderator it is bound to',
          tags: ['moderation'],
          response: { 200: MeResponse, ...errorResponses(false) },
        },
      },
      async (req) => describeKey(deps.store, req.apiKey),
    );
  };
}
