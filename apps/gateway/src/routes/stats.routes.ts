import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, StatsQuery, StatsResponse } from '@rm/contracts';
import type { GatewayDeps } from '../deps.js';
import { queueStats } from '../use-cases/queue-stats.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse, 500: ErrorResponse };

/** Queue health for lead moderators: GET /v1/stats?window=P7D. */
export function statsRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/stats',
      {
        config: { permission: 'reports.view_reports' },
        schema: { querystring: StatsQuery, response: { 200: StatsResponse, ...errors } },
      },
      async (request) => queueStats(deps.store, request.query),
    );
  };
}
