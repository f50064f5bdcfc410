import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, TransparencyQuery, TransparencyResponse } from '@rm/contracts';
import type { TransparencyStore } from '@rm/storage';
import type { GatewayDeps } from '../deps.js';
import { transparencyFigures } from '../use-cases/transparency-figures.js';

type Deps = Pick<GatewayDeps, 'config'> & { store: TransparencyStore };

/** The transparency figures for the operator's yearly report (admin keys only): GET /v1/transparency?from=&to=. */
export function transparencyRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/transparency',
      {
        config: { adminOnly: true },
        schema: {
          operationId: 'getTransparencyFigures',
          summary: 'Transparency figures of a period (admin keys): reports, decisions, sanctions by kind, ground and automation, median time to decision',
          tags: ['transparency'],
          querystring: TransparencyQuery,
          response: { 200: TransparencyResponse, ...errorResponses(false) },
        },
      },
      async (req) => transparencyFigures(deps.store, deps.config.TRIAGE_POLICY, req.query),
    );
  };
}
