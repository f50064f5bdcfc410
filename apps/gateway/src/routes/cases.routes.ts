import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CaseIdParams, CaseResponse, CasesQuery, CasesResponse, errorResponses } from '@rm/contracts';
import type { AccountStore, AppealStore, DecisionStore, EvidenceStore, ReporterStore, ReportStore, SanctionStore, TriageStore } from '@rm/storage';
import type { GatewayDeps } from '../deps.js';
import { getCase } from '../use-cases/get-case.js';
import { listCases } from '../use-cases/list-cases.js';

type Deps = Pick<GatewayDeps, 'config' | 'directory'> & {
  store: ReportStore & ReporterStore & TriageStore & DecisionStore & SanctionStore & AppealStore & EvidenceStore & AccountStore;
};

/** The triage queue (docs/triage.md): cases by priority, and one case with its reports and decisions. */
export function casesRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/cases',
      {
        config: { permission: 'reports.view_reports' },
        schema: {
          operationId: 'listCases',
          summary: 'List cases by priority (or age), with their categories, flags and claimer',
          querystring: CasesQuery,
          response: { 200: CasesResponse, ...errorResponses(false) },
        },
      },
      async (request) => listCases(deps.store, deps.directory, deps.config.TRIAGE_POLICY, request.query),
    );

    app.get(
      '/cases/:caseId',
      {
        config: { permission: 'reports.view_reports' },
        schema: {
          operationId: 'getCase',
          summary: 'One case with its reports (reporters with credibility), decisions and the player’s sanctions',
          params: CaseIdParams,
          response: { 200: CaseResponse, ...errorResponses(false) },
        },
      },
      async (request) => getCase(deps.store, deps.directory, deps.config.TRIAGE_POLICY, request.params.caseId),
    );
  };
}
