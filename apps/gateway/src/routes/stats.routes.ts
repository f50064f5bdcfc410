import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, StatsQuery, StatsResponse } from '@rm/contracts';
import type { AppealStore, TriageStore } from '@rm/storage';
import type { GatewayDeps } from '../deps.js';
import { queueStats } from '../use-cases/queue-stats.js';


type Deps = Pick<GatewayDeps, 'config'> & { store: TriageStore & AppealStore };

/** Queue health for lead moderators: GET /v1/stats?window=P7D. */
export function statsRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/stats',
      {
        config: { permission: 'reports.view_reports' },
        schema: {
          operationId: 'getQueueStats',
          summary: 'Queue health over a window: open cases, times to claim and decide, overturns, SLA breaches',
          tags: ['queue'],
          querystring: StatsQuery,
          response: { 200: StatsResponse, ...errorResponses(false) },
        },
      },
      async (request) => queueStats(deps.store, deps.config.TRIAGE_POLICY, request.query),
    );
  };
}
