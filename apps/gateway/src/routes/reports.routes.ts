import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CheckBody,
  CheckResponse,
  ErrorResponse,
  ListQuery,
  ListResponse,
  SubmitReportBody,
  SubmitReportResponse,
  UserIdParams,
} from '@rm/contracts';
import type { GatewayDeps } from '../deps.js';
import { checkReport } from '../use-cases/check-report.js';
import { listReports } from '../use-cases/list-reports.js';
import { submitReport } from '../use-cases/submit-report.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse, 500: ErrorResponse };

/** Submit, check and list: the game clients' side of the API. */
export function reportsRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/reports/new',
      {
        config: { permission: 'reports.submit_report', ratedByUseCase: true },
        schema: { body: SubmitReportBody, response: { 200: SubmitReportResponse, ...errors } },
      },
      async (request) => submitReport(deps, request.apiKey, request.body, request.id),
    );

    app.post(
      '/reports/check',
      {
        config: { permission: 'reports.submit_report', ratedByUseCase: true },
        schema: { body: CheckBody, response: { 200: CheckResponse, ...errors } },
      },
      async (request) => checkReport(deps, request.apiKey, request.body),
    );

    app.get(
      '/reports/:id',
      {
        config: { permission: 'reports.view_reports' },
        schema: { params: UserIdParams, querystring: ListQuery, response: { 200: ListResponse, ...errors } },
      },
      async (request) => listReports(deps.store, request.params.id, request.query),
    );
  };
}
