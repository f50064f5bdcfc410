import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, ReporterOutcomesParams, ReporterOutcomesQuery, ReporterOutcomesResponse } from '@rm/contracts';
import type { ReporterStore } from '@rm/storage';
import { reporterOutcomes } from '../use-cases/reporter-outcomes.js';

type Deps = { store: ReporterStore };

/** What a reporter may learn of their reports (DSA Art. 16(5)): for the game client, never the penalty. */
export function reportersRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/reporters/:platform/:reporterId/outcomes',
      {
        config: { permission: 'reports.read_outcomes' },
        schema: {
          operationId: 'getReporterOutcomes',
          summary: "A reporter's decided reports, actioned or not (never the penalty), paged by seq",
          tags: ['reporters'],
          params: ReporterOutcomesParams,
          querystring: ReporterOutcomesQuery,
          response: { 200: ReporterOutcomesResponse, ...errorResponses(false) },
        },
      },
      async (req) => reporterOutcomes(deps.store, req.params, req.query),
    );
  };
}
