import { z } from 'zod';
import { SANCTION_EVENT_TYPES, SanctionEventView } from './sanctions.js';
import { StatementOfReasons } from './statements.js';

/**
 * The body of the optional decision webhook (`DECISION_WEBHOOK_URL`), sent as JSON and signed with
 * HMAC-SHA256 of the raw body (`X-Signature: sha256=<hex>`) so a game server can enforce bans.
 */
export const DecisionWebhookBody = z.object({
  event: z.enum(['approved', 'dismissed', 'undone']),
  decisionId: z.string(),
  caseId: z.string(),
  userId: z.string(),
  reportIds: z.array(z.string()),
  moderator: z.object({ id: z.string(), username: z.string() }),
  /** What the decision did to the user's ban: set (approve), lift (undo of an approval), or nothing. */
  ban: z.enum(['set', 'lift']).nullable(),
  reason: z.string().optional(),
  /** When the decision was applied, milliseconds since the epoch. */
  at: z.number().int(),
});
export type DecisionWebhookBody = z.infer<typeof DecisionWebhookBody>;

/**
 * A sanction change sent on the same webhook: the feed's event as GET /v1/sanctions shows it, with
 * `event` naming its type. `X-Event-Id` is `sanction-<seq>`, the dedupe key shared with the feed.
 */
export const SanctionWebhookBody = SanctionEventView.extend({
  event: z.enum(SANCTION_EVENT_TYPES),
  // A job queued by a version before statements of reasons has none: it is sent with null.
  statement: StatementOfReasons.nullable().default(null),
});
export type SanctionWebhookBody = z.infer<typeof SanctionWebhookBody>;

const aboutCase = { caseId: z.string(), requestId: z.string().optional() };
const decision = { ...aboutCase, decisionId: z.string(), moderatorId: z.string(), at: z.number().int() };

/** A chat message as the platform knows it: where it is and its id there. */
export const MessageRef = z.object({ channel: z.string(), messageId: z.string() });

/**
 * Payload of a job on the notifications queue. `case.opened`, `case.appended` and `case.sync` jobs
 * bring the case's chat message in line with the case (post it if it is not there yet, else edit
 * it); they coalesce per case. `case.approved`, `case.dismissed` and `case.reopened` carry a
 * decision's own deliveries: `reporter.dm` and `decision.webhook` jobs (the undo's superseded
 * message too, in jobs of versions before the moderation worker marked it itself).
 * `case.claimed` and `case.unclaimed` are syncs queued by versions before `case.sync`.
 */
export const NotificationJob = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('case.opened'), ...aboutCase, reportId: z.string() }),
  z.object({ kind: z.literal('case.appended'), ...aboutCase, reportId: z.string() }),
  /** A decision's sync of the case's message, a moment after it (CASE_SYNC_DELAY_MS), so the syncs of quick decisions coalesce. */
  z.object({ kind: z.literal('case.sync'), ...aboutCase, decisionId: z.string() }),
  z.object({ kind: z.literal('case.claimed'), ...decision }),
  z.object({ kind: z.literal('case.unclaimed'), ...decision }),
  z.object({ kind: z.literal('case.approved'), ...decision, dm: z.boolean().optional() }),
  z.object({ kind: z.literal('case.dismissed'), ...decision, dm: z.boolean(), reason: z.string().optional() }),
  z.object({
    kind: z.literal('case.reopened'),
    ...decision,
    undid: z.enum(['approved', 'dismissed']),
    /**
     * The message the case had before the undo re-posted it, edited to point at the new one. Set by
     * versions before the `case.superseded` effect (the moderation worker marks it now).
     */
    previousMessage: MessageRef.optional(),
  }),
  z.object({
    kind: z.literal('reporter.dm'),
    ...aboutCase,
    decisionId: z.string(),
    reporterId: z.string(),
    /** What the DM tells: action was taken, or not (then with the reason). Absent (an earlier version's job): dismissed. */
    outcome: z.enum(['actioned', 'not_actioned']).optional(),
    reason: z.string().optional(),
  }),
  z.object({ kind: z.literal('decision.webhook'), decisionId: z.string(), body: DecisionWebhookBody, requestId: z.string().optional() }),
  z.object({ kind: z.literal('sanction.webhook'), body: SanctionWebhookBody, requestId: z.string().optional() }),
]);
export type NotificationJob = z.infer<typeof NotificationJob>;
export type NotificationKind = NotificationJob['kind'];
export type NotificationOf<K extends NotificationKind> = Extract<NotificationJob, { kind: K }>;

/**
 * A notification that failed for good, as kept on the dead-letter queue: the original job's id,
 * name, data and retry options, so a replay puts back exactly that job.
 */
export const DeadNotification = z.object({
  jobId: z.string(),
  name: z.string(),
  /** Raw: a payload that never parsed is dead-lettered too, and shown as it was. */
  data: z.unknown(),
  attempts: z.number().int(),
  backoff: z.object({ type: z.string(), delay: z.number() }).optional(),
  attemptsMade: z.number().int(),
  failedReason: z.string(),
  failedAt: z.number().int(),
});
export type DeadNotification = z.infer<typeof DeadNotification>;

/**
 * Deterministic job ids, so a notification enqueued twice (a redelivered intake or decision job)
 * is one job. BullMQ ids may not contain ':'; reporter ids are free text, hence the encoding.
 */
export function notificationJobId(job: NotificationJob): string {
  switch (job.kind) {
    case 'case.opened':
    case 'case.appended':
      return `report-${job.reportId}`;
    case 'case.sync':
      return `sync-${job.decisionId}`;
    case 'case.claimed':
    case 'case.unclaimed':
    case 'case.approved':
    case 'case.dismissed':
    case 'case.reopened':
      return `decision-${job.decisionId}`;
    case 'reporter.dm':
      return `dm-${job.decisionId}${dmKeySuffix(job.reporterId)}`;
    case 'decision.webhook':
      return `webhook-${job.decisionId}`;
    case 'sanction.webhook':
      return `sanction-${job.body.seq}`;
  }
}

/** A decision's own deliveries (its DMs and webhook), fanned out by the notification worker. */
export type DecisionDeliveries = NotificationOf<'case.approved' | 'case.dismissed' | 'case.reopened'>;

export function isDecisionDeliveries(job: NotificationJob): job is DecisionDeliveries {
  return job.kind === 'case.approved' || job.kind === 'case.dismissed' || job.kind === 'case.reopened';
}

/** What a decision's DMs to its chat-platform reporters tell, or null when it sends none (an approval unless `dm: false`, a dismissal with `dm: true`). */
export function reporterDmOutcome(job: DecisionDeliveries): 'actioned' | 'not_actioned' | null {
  if (job.kind === 'case.approved') return job.dm === true ? 'actioned' : null;
  if (job.kind === 'case.dismissed') return job.dm ? 'not_actioned' : null;
  return null;
}

export type CaseSync = NotificationOf<'case.opened' | 'case.appended' | 'case.sync'>;

/** A case-message sync caused by a stored report or a decision: these coalesce per case (notificationCoalesceId). */
export function isCaseSync(job: NotificationJob): job is CaseSync {
  return job.kind === 'case.opened' || job.kind === 'case.appended' || job.kind === 'case.sync';
}

/**
 * Case-message syncs coalesce per case: while one waits, another adds nothing (the waiting one
 * reads the case as it is when it runs); while one runs, one more is kept to follow it. A burst of
 * reports about one player, or a claim, approve and undo in quick succession, then costs a few
 * chat edits, not one each.
 */
export function notificationCoalesceId(job: CaseSync): string {
  return `case-sync-${job.caseId}`;
}

/**
 * How every key of a DM to a reporter (its job, its dedupe and delivery key: `dm-<decisionId>-<id>`)
 * ends, for a reporter's erasure to find them.
 */
export function dmKeySuffix(reporterId: string): string {
  return `-${encodeURIComponent(reporterId)}`;
}
