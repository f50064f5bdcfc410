import type { DecisionJob } from '@rm/contracts';
import { effectsOf, type EffectSpec } from '@rm/delivery';
import type { CaseRecord, NewEffect } from '@rm/storage';
import { decisionDeliveries, decisionSync } from './decision-notification.js';
import type { Repost } from './repost-case.js';
import type { DueDeadline } from './schedule-deadlines.js';

/** What a decision's effects depend on besides the decision itself. */
export interface DecisionOutcome {
  repost?: Repost | undefined;
  liftedSanctionId?: string | undefined;
  /** The approval's sanction's end (null: permanent). */
  expiresAt: number | null;
  /** The claim's expiry or the reopened case's SLA check. */
  deadline: DueDeadline | null;
}

/**
 * Everything a decision owes once committed, in the order the relay carries it out: the player's
 * Redis view, first because the answer waits for the effects before the first it need not wait
 * for (decide.ts, BEFORE_ANSWER), so `check` sees a ban at once; its reports' settlement (done
 * already unless a stopped process left it); the sync
 * of the case's message and the decision's deliveries (DMs, decision webhook); the sanction's webhook and its expiry; the deadline; last, the undo's mark on the
 * message it superseded, an edit on the chat platform that holds nothing else up if it fails.
 */
export function decisionEffects(job: DecisionJob, c: CaseRecord, at: number, o: DecisionOutcome): NewEffect[] {
  const { repost, liftedSanctionId, expiresAt } = o;
  const specs: EffectSpec[] = [];
  if (job.action === 'approve' || job.action === 'dismiss') specs.push({ kind: 'redis.user', payload: { userId: c.userId, caseId: c.id, change: 'close' } });
  if (job.action === 'undo') specs.push({ kind: 'redis.user', payload: { userId: c.userId, caseId: c.id, change: 'reopen' } });
  // Then outcomes and credibility settled before anything tells a reporter of the decision.
  if (job.action === 'approve' || job.action === 'dismiss' || job.action === 'undo') specs.push({ kind: 'reports.settle', payload: { caseId: c.id } });
  specs.push({ kind: 'notify', payload: decisionSync(job, c.id) });
  const deliveries = decisionDeliveries(job, { caseId: c.id, fromState: c.state, at });
  if (deliveries) specs.push({ kind: 'notify', payload: deliveries });
  if (job.action === 'approve') {
    specs.push({ kind: 'sanction.webhook', payload: { sanctionId: job.decisionId, type: 'sanction.created' } });
    if (expiresAt !== null) specs.push({ kind: 'sanction.expiry', payload: { sanctionId: job.decisionId, expiresAt } });
  }
  if (liftedSanctionId) specs.push({ kind: 'sanction.webhook', payload: { sanctionId: liftedSanctionId, type: 'sanction.lifted' } });
  if (o.deadline) specs.push({ kind: 'deadline', payload: o.deadline });
  if (repost?.previous) specs.push({ kind: 'case.superseded', payload: { caseId: c.id, ...repost.previous } });
  return effectsOf(job.decisionId, specs);
}
