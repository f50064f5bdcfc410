import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, SanctionFeedQuery, SanctionFeedResponse, SanctionStatusResponse, SanctionUserParams } from '@rm/contracts';
import { SanctionStatusCache } from '@rm/report-guard';
import type { GatewayDeps } from '../deps.js';
import { sanctionFeed } from '../use-cases/sanction-feed.js';
import { sanctionStatus } from '../use-cases/sanction-status.js';

const errors = errorResponses(false);
const config = { permission: 'sanctions.read' } as const;

/** The ban API for game servers: a player's sanctions (checked on join) and the feed of every change. */
export function sanctionsRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const cache = new SanctionStatusCache(deps.redis, deps.config.QUEUE_PREFIX);
  return async (app) => {
    app.get(
      '/sanctions/:userId',
      {
        config,
        schema: {
          operationId: 'getSanctionStatus',
          summary: "A player's sanctions and whether they are banned now (check on join)",
          tags: ['sanctions'],
          params: SanctionUserParams,
          response: { 200: SanctionStatusResponse, ...errors },
        },
      },
      async (req, reply) => {
        const json = await sanctionStatus({ store: deps.store, cache }, req.params.userId);
        // Sent as cached: a string with a JSON content type is not serialized again (the type
        // provider only knows the parsed shape, hence the cast).
        return reply.type('application/json; charset=utf-8').send(json as unknown as SanctionStatusResponse);
      },
    );
    app.get(
      '/sanctions',
      {
        config,
        schema: {
          operationId: 'getSanctionFeed',
          summary: 'Every sanction change in the order it took effect, paged by seq',
          tags: ['sanctions'],
          querystring: SanctionFeedQuery,
          response: { 200: SanctionFeedResponse, ...errors },
        },
      },
      async (req) => sanctionFeed(deps.store, req.query),
    );
  };
}
