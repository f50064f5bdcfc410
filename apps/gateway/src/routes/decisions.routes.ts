import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApproveBody,
  ApproveResponse,
  ClaimBody,
  ClaimResponse,
  DismissBody,
  DismissResponse,
  errorResponses,
  parseSanctionDuration,
  ReportIdParams,
  UnclaimBody,
  UndoBody,
  UndoResponse,
} from '@rm/contracts';
import { uuidv7 } from '@rm/runtime';
import type { GatewayDeps } from '../deps.js';
import { requireBoundModerator } from '../http/bound-moderator.js';
import { requireKnownKind } from '../use-cases/known-kinds.js';
import { requestDecision } from '../use-cases/request-decision.js';

const errors = errorResponses(true);
/** Names and summaries of the OpenAPI operations (client generators name methods from them). */
const doc = (operationId: string, summary: string) => ({ operationId, summary, tags: ['moderation'] });
const config = { permission: 'reports.handle_reports' } as const;

type Deps = Pick<GatewayDeps, 'config' | 'decisions'>;

/** Claim, unclaim, approve, dismiss, undo: each becomes one job on the decisions queue. */
export function decisionsRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('preHandler', requireBoundModerator);
    app.post(
      '/reports/:id/claim',
      { config, schema: { ...doc('claimReport', "Claim a report's case for a moderator"), params: ReportIdParams, body: ClaimBody, response: { 200: ClaimResponse, ...errors } } },
      async (req) =>
        requestDecision(deps, { action: 'claim', decisionId: uuidv7(), reportId: req.params.id, moderatorId: req.body.moderator.id, requestId: req.id }, req.trace?.traceparent),
    );
    app.post(
      '/reports/:id/unclaim',
      { config, schema: { ...doc('unclaimReport', 'Release a claim'), params: ReportIdParams, body: UnclaimBody, response: { 200: ClaimResponse, ...errors } } },
      async (req) =>
        requestDecision(
          deps,
          {
            action: 'unclaim',
            decisionId: uuidv7(),
            reportId: req.params.id,
            moderatorId: req.body.moderator.id,
            bypassClaimCheck: req.body.bypassClaimCheck ?? false,
            requestId: req.id,
          },
          req.trace?.traceparent,
        ),
    );
    app.post(
      '/reports/:id/approve',
      { config, schema: { ...doc('approveReport', "Approve a report: sanction the user (the ladder's next step, or the kind and duration named), close the case"), params: ReportIdParams, body: ApproveBody, response: { 200: ApproveResponse, ...errors } } },
      async (req) => {
        if (req.body.kind !== undefined) requireKnownKind(deps.config.TRIAGE_POLICY, req.body.kind);
        return requestDecision(
          deps,
          {
            action: 'approve',
            decisionId: uuidv7(),
            reportId: req.params.id,
            moderatorId: req.body.moderator.id,
            ...(req.body.kind !== undefined && { kind: req.body.kind }),
            ...(req.body.duration !== undefined && { durationMs: parseSanctionDuration(req.body.duration)! }),
            ...(req.body.reason !== undefined && { sanctionReason: req.body.reason }),
            dm: req.body.dm ?? true,
            ...(req.body.illegalContent !== undefined && { illegalContent: req.body.illegalContent }),
            requestId: req.id,
          },
          req.trace?.traceparent,
        );
      },
    );
    app.post(
      '/reports/:id/dismiss',
      { config, schema: { ...doc('dismissReport', 'Dismiss a report: close the case without a ban'), params: ReportIdParams, body: DismissBody, response: { 200: DismissResponse, ...errors } } },
      async (req) =>
        requestDecision(
          deps,
          {
            action: 'dismiss',
            decisionId: uuidv7(),
            reportId: req.params.id,
            moderatorId: req.body.moderator.id,
            dm: req.body.dm ?? false,
            ...(req.body.reason !== undefined && { reason: req.body.reason }),
            requestId: req.id,
          },
          req.trace?.traceparent,
        ),
    );
    app.post(
      '/reports/:id/undo',
      { config, schema: { ...doc('undoDecision', 'Undo the last approve or dismiss of a case'), params: ReportIdParams, body: UndoBody, response: { 200: UndoResponse, ...errors } } },
      async (req) =>
        requestDecision(deps, { action: 'undo', decisionId: uuidv7(), reportId: req.params.id, moderatorId: req.body.moderator.id, requestId: req.id }, req.trace?.traceparent),
    );
  };
}
