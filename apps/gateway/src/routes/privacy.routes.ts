import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, HoldBody, HoldIdParams, HoldResponse, PrivacyErasureBody, PrivacyErasureResponse, PrivacyExportResponse, PrivacySubjectBody, ReleaseHoldBody } from '@rm/contracts';
import { noHashLock } from '@rm/evidence';
import { eraseSubject, exportSubject, holdTargetOf, placeHold, releaseHold, subjectOf } from '@rm/privacy';
import type { AccountStore, DecisionStore, EvidenceStore, HoldRecord, PrivacyStore, ReportStore, SanctionStore, TriageStore } from '@rm/storage';
import type { GatewayDeps } from '../deps.js';

const bodyErrors = errorResponses(true);
const config = { permission: 'privacy.manage' } as const;

type Deps = Pick<GatewayDeps, 'config' | 'redis' | 'evidence' | 'privacy'> & {
  store: PrivacyStore & EvidenceStore & Pick<DecisionStore, 'getCaseMessage'> & ReportStore & TriageStore & AccountStore & Pick<SanctionStore, 'getSanction'>;
};

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const holdView = (h: HoldRecord) => ({ ...h, until: iso(h.until), placedAt: iso(h.placedAt)!, releasedAt: iso(h.releasedAt) });

/** Who the privacy audit names as the actor of a request: the API key. */
const actorOf = (req: { apiKey: { key: string } }) => `key:${req.apiKey.key}`;

/**
 * Data subject requests and legal holds (docs/privacy.md): `privacy.manage`, which no key holds
 * unless given (admin keys hold every permission).
 */
export function privacyRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    const policy = deps.config.TRIAGE_POLICY;
    app.post(
      '/privacy/exports',
      {
        config,
        schema: {
          operationId: 'exportPrivacySubject',
          summary: 'Everything held about a player or a reporter, as one JSON document (each part says what it is and why it is kept)',
          tags: ['privacy'],
          body: PrivacySubjectBody,
          response: { 200: PrivacyExportResponse, ...bodyErrors },
        },
      },
      async (req) => ({ success: true as const, ...(await exportSubject({ store: deps.store }, subjectOf(req.body), actorOf(req))) }),
    );
    app.post(
      '/privacy/erasures',
      {
        config,
        schema: {
          operationId: 'erasePrivacySubject',
          summary: "Erases a player's or a reporter's personal data except what an active sanction or a legal hold keeps; dryRun changes nothing",
          tags: ['privacy'],
          body: PrivacyErasureBody,
          response: { 200: PrivacyErasureResponse, ...bodyErrors },
        },
      },
      async (req) => {
        const { dryRun, ...subject } = req.body;
        const answer = await eraseSubject(
          {
            store: deps.store,
            blobs: deps.evidence.blobs,
            lock: dryRun === true || !deps.privacy ? noHashLock : deps.privacy.lock,
            redis: deps.redis,
            prefix: deps.privacy?.prefix ?? 'rm',
            chat: deps.privacy?.chat ?? null,
            queues: deps.privacy?.queues ?? [],
          },
          subjectOf(subject),
          { keep: { categoryQuestionId: policy.category.questionId, categories: Object.keys(policy.categories) }, dryRun: dryRun === true, actor: actorOf(req) },
        );
        return { success: true as const, ...answer };
      },
    );
    app.post(
      '/privacy/holds',
      {
        config,
        schema: {
          operationId: 'placeLegalHold',
          summary: 'Places a legal hold on a case, a player or a sanction: erasure and retention sweeps skip what it holds',
          tags: ['privacy'],
          body: HoldBody,
          response: { 200: HoldResponse, ...bodyErrors },
        },
      },
      async (req) => {
        const hold = await placeHold(deps.store, {
          target: holdTargetOf(req.body.target.type, req.body.target.id),
          reason: req.body.reason,
          until: req.body.until === undefined ? null : Date.parse(req.body.until),
          placedBy: actorOf(req),
        });
        return { success: true as const, hold: holdView(hold) };
      },
    );
    app.post(
      '/privacy/holds/:holdId/release',
      {
        config,
        schema: {
          operationId: 'releaseLegalHold',
          summary: 'Releases a legal hold',
          tags: ['privacy'],
          params: HoldIdParams,
          body: ReleaseHoldBody,
          response: { 200: HoldResponse, ...bodyErrors },
        },
      },
      async (req) => ({ success: true as const, hold: holdView(await releaseHold(deps.store, { id: req.params.holdId, by: actorOf(req), reason: req.body.reason ?? null })) }),
    );
  };
}
