import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CaseIdParams, CaseResponse, CasesQuery, CasesResponse, ErrorResponse } from '@rm/contracts';
import type { GatewayDeps } from '../deps.js';
import { getCase } from '../use-cases/get-case.js';
import { listCases } from '../use-cases/list-cases.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse, 500: ErrorResponse };

/** The triage queue (docs/triage.md): cases by priority, and one case with its reports and decisions. */
export function casesRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/cases',
      {
        config: { permission: 'reports.view_reports' },
        schema: { querystring: CasesQuery, response: { 200: CasesResponse, ...errors } },
      },
      async (request) => listCases(deps.store, deps.config.TRIAGE_POLICY, request.query),
    );

    app.get(
      '/cases/:caseId',
      {
        config: { permission: 'reports.view_reports' },
        schema: { params: CaseIdParams, response: { 200: CaseResponse, ...errors } },
      },
      async (request) => getCase(deps.store, deps.config.TRIAGE_POLICY, request.params.caseId),
    );
  };
}
