import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, SanctionFeedQuery, SanctionFeedResponse, SanctionStatusResponse, SanctionUserParams } from '@rm/contracts';
import { SanctionStatusCache } from '@rm/report-guard';
import type { GatewayDeps } from '../deps.js';
import { sanctionFeed } from '../use-cases/sanction-feed.js';
import { sanctionStatus } from '../use-cases/sanction-status.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse, 500: ErrorResponse };
const config = { permission: 'sanctions.read' } as const;

/** The ban API for game servers: a player's sanctions (checked on join) and the feed of every change. */
export function sanctionsRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const cache = new SanctionStatusCache(deps.redis, deps.config.QUEUE_PREFIX);
  return async (app) => {
    app.get(
      '/sanctions/:userId',
      { config, schema: { params: SanctionUserParams, response: { 200: SanctionStatusResponse, ...errors } } },
      async (req, reply) => {
        const json = await sanctionStatus({ store: deps.store, cache }, req.params.userId);
        // Sent as cached: a string with a JSON content type is not serialized again (the type
        // provider only knows the parsed shape, hence the cast).
        return reply.type('application/json; charset=utf-8').send(json as unknown as SanctionStatusResponse);
      },
    );
    app.get(
      '/sanctions',
      { config, schema: { querystring: SanctionFeedQuery, response: { 200: SanctionFeedResponse, ...errors } } },
      async (req) => sanctionFeed(deps.store, req.query),
    );
  };
}
