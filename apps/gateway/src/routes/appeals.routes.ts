import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AppError,
  AppealClaimBody,
  AppealDecisionBody,
  AppealIdParams,
  AppealLinkBody,
  AppealLinkResponse,
  AppealResponse,
  AppealsQuery,
  AppealsResponse,
  AppealUnclaimBody,
  decodeAppealCursor,
  encodeAppealCursor,
  errorResponses,
  SanctionIdParams,
  SubmitAppealBody,
  SubmitAppealResponse,
  type AppealDecisionAction,
} from '@rm/contracts';
import { uuidv7 } from '@rm/runtime';
import { appealSettingsOf } from '@rm/triage';
import type { AccountStore, AppealStore, SanctionStore } from '@rm/storage';
import type { GatewayDeps } from '../deps.js';
import { requireBoundModerator } from '../http/bound-moderator.js';
import { appealDetail, appealViews } from '../use-cases/appeal-views.js';
import { requestAppealDecision } from '../use-cases/request-appeal-decision.js';
import { appealFiling, submitAppeal } from '../use-cases/submit-appeal.js';
import { issueAppealLink } from '../use-cases/appeal-link.js';

const doc = (operationId: string, summary: string) => ({ operationId, summary, tags: ['appeals'] });
const decide = { permission: 'reports.handle_reports' } as const;
const view = { permission: 'reports.view_reports' } as const;

type Deps = Pick<GatewayDeps, 'config' | 'logger' | 'sanctionsQueue' | 'decisions' | 'appealPage'> & { store: AppealStore & SanctionStore & AccountStore };

/** Appeals (docs/appeals.md): game servers file them; moderators work them as a queue beside cases. */
export function appealsRoutes(deps: Deps): FastifyPluginAsyncZod {
  const slaMs = () => appealSettingsOf(deps.config.TRIAGE_POLICY).slaMs;
  return async (app) => {
    app.post(
      '/appeals',
      {
        config: { permission: 'appeals.submit' },
        schema: { ...doc('submitAppeal', "File a player's appeal of their sanction (a repeat answers the same appeal)"), body: SubmitAppealBody, response: { 200: SubmitAppealResponse, ...errorResponses(true) } },
      },
      async (req) => submitAppeal(appealFiling(deps, deps.config.TRIAGE_POLICY, req.trace?.traceparent), req.body),
    );
    app.post(
      '/sanctions/:sanctionId/appeal-link',
      {
        config: { permission: 'appeals.submit' },
        schema: {
          ...doc('createAppealLink', "The link to a player's own appeal page for one of their sanctions: a URL with a signed token that expires (APPEAL_LINK_TTL)"),
          params: SanctionIdParams,
          body: AppealLinkBody,
          response: { 200: AppealLinkResponse, ...errorResponses(true) },
        },
      },
      async (req) => issueAppealLink({ store: deps.store, page: deps.appealPage }, req.params.sanctionId, req.body.userId, `${req.protocol}://${req.host}`),
    );
    app.get(
      '/appeals',
      { config: view, schema: { ...doc('listAppeals', 'The appeals queue, oldest first (by default open and claimed ones; all of a player\'s with userId), a page after a cursor'), querystring: AppealsQuery, response: { 200: AppealsResponse, ...errorResponses(false) } } },
      async (req) => {
        const q = req.query;
        const appeals = await deps.store.listAppeals({
          // The queue is what waits (open, claimed); a player's appeals are all of theirs.
          states: q.state ? [q.state] : q.userId !== undefined ? ['open', 'claimed', 'upheld', 'overturned'] : ['open', 'claimed'],
          category: q.category,
          userId: q.userId,
          after: q.after === undefined ? undefined : decodeAppealCursor(q.after)!,
          // One more than the page: whether a next page exists without a count.
          limit: q.limit + 1,
        });
        const page = appeals.slice(0, q.limit);
        return { success: true as const, appeals: await appealViews(deps.store, page, slaMs()), next: appeals.length > q.limit ? encodeAppealCursor(page.at(-1)!) : null };
      },
    );
    app.get(
      '/appeals/:appealId',
      { config: view, schema: { ...doc('getAppeal', 'One appeal with its story and the sanction it contests'), params: AppealIdParams, response: { 200: AppealResponse, ...errorResponses(false) } } },
      async (req) => {
        const a = await deps.store.getAppeal(req.params.appealId);
        if (!a) throw new AppError('NOT_FOUND', `Appeal ${req.params.appealId} not found`);
        return { success: true as const, appeal: await appealDetail(deps.store, a, slaMs()) };
      },
    );

    // Decisions: a bound key acts only as its moderator, as for cases.
    const decisionRoutes: FastifyPluginAsyncZod = async (decisions) => {
      decisions.addHook('preHandler', requireBoundModerator);
      const job = (action: AppealDecisionAction, appealId: string, moderatorId: string, req: FastifyRequest, extra: { reason?: string; bypassClaimCheck?: boolean } = {}) =>
        requestAppealDecision(deps, { action, decisionId: uuidv7(), appealId, moderatorId, requestId: req.id, ...extra }, req.trace?.traceparent);
      decisions.post(
        '/appeals/:appealId/claim',
        { config: decide, schema: { ...doc('claimAppeal', 'Claim an appeal'), params: AppealIdParams, body: AppealClaimBody, response: { 200: AppealResponse, ...errorResponses(true) } } },
        async (req) => job('appeal.claim', req.params.appealId, req.body.moderator.id, req),
      );
      decisions.post(
        '/appeals/:appealId/unclaim',
        { config: decide, schema: { ...doc('unclaimAppeal', "Release an appeal's claim"), params: AppealIdParams, body: AppealUnclaimBody, response: { 200: AppealResponse, ...errorResponses(true) } } },
        async (req) => job('appeal.unclaim', req.params.appealId, req.body.moderator.id, req, { bypassClaimCheck: req.body.bypassClaimCheck ?? false }),
      );
      decisions.post(
        '/appeals/:appealId/uphold',
        { config: decide, schema: { ...doc('upholdAppeal', 'Uphold the sanction: the appeal is refused, with the reason sent to the game'), params: AppealIdParams, body: AppealDecisionBody, response: { 200: AppealResponse, ...errorResponses(true) } } },
        async (req) => job('appeal.uphold', req.params.appealId, req.body.moderator.id, req, { reason: req.body.reason }),
      );
      decisions.post(
        '/appeals/:appealId/overturn',
        { config: decide, schema: { ...doc('overturnAppeal', 'Overturn the sanction: it is lifted, with the reason sent to the game'), params: AppealIdParams, body: AppealDecisionBody, response: { 200: AppealResponse, ...errorResponses(true) } } },
        async (req) => job('appeal.overturn', req.params.appealId, req.body.moderator.id, req, { reason: req.body.reason }),
      );
    };
    await app.register(decisionRoutes);
  };
}
