import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CheckBody,
  CheckResponse,
  errorResponses,
  ListQuery,
  ListResponse,
  SubmitReportBody,
  SubmitReportResponse,
  UserIdParams,
} from '@rm/contracts';
import type { ReportStore, SanctionStore } from '@rm/storage';
import type { GatewayDeps } from '../deps.js';
import { checkReport } from '../use-cases/check-report.js';
import { listReports } from '../use-cases/list-reports.js';
import { submitReport } from '../use-cases/submit-report.js';

const withBody = errorResponses(true);
const withoutBody = errorResponses(false);

type Deps = Pick<GatewayDeps, 'directory' | 'intake' | 'config' | 'guard'> & { store: ReportStore & SanctionStore };

/** Submit, check and list: the game clients' side of the API. */
export function reportsRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/reports/new',
      {
        config: { permission: 'reports.submit_report', ratedByUseCase: true },
        schema: {
          operationId: 'submitReport',
          summary: 'Submit a report about a player',
          tags: ['reports'],
          body: SubmitReportBody,
          response: { 200: SubmitReportResponse, ...withBody },
        },
      },
      async (request) => submitReport(deps, request.apiKey, request.body, { id: request.id, traceparent: request.trace?.traceparent }),
    );

    app.post(
      '/reports/check',
      {
        config: { permission: 'reports.submit_report', ratedByUseCase: true },
        schema: {
          operationId: 'checkReport',
          summary: 'Check whether a reporter may report a user now',
          tags: ['reports'],
          body: CheckBody,
          response: { 200: CheckResponse, ...withBody },
        },
      },
      async (request) => checkReport(deps, request.apiKey, request.body),
    );

    app.get(
      '/reports/:id',
      {
        config: { permission: 'reports.view_reports' },
        schema: {
          operationId: 'listReports',
          summary: 'List the reports about a user, newest first',
          tags: ['reports'],
          params: UserIdParams,
          querystring: ListQuery,
          response: { 200: ListResponse, ...withoutBody },
        },
      },
      async (request) => listReports(deps.store, request.params.id, request.query),
    );
  };
}
