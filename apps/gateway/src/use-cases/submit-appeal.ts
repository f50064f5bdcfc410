import type { Queue } from 'bullmq';
import { AppError, jobIdFor, type SanctionJob, type SubmitAppealBody, type SubmitAppealResponse } from '@rm/contracts';
import { effectsOf } from '@rm/delivery';
import { carryingTrace, uuidv7 } from '@rm/runtime';
import type { AccountStore, AppealStore, SanctionRecord, SanctionStore } from '@rm/storage';
import { appealSettingsOf, isAutomatedSanction, type TriagePolicy } from '@rm/triage';
import type { GatewayDeps } from '../deps.js';
import { appealViews } from './appeal-views.js';

export interface SubmitAppealDeps {
  store: SanctionStore & AppealStore & AccountStore;
  policy: TriagePolicy;
  /** The moderation worker's queue: a relay job carries out the appeal's effect (its SLA deadline) now. */
  sanctionsQueue: Queue;
  onQueueError: (err: unknown) => void;
  /** The request's traceparent, carried by the job (http/tracing.ts). */
  trace?: string | undefined;
}

/** What submitAppeal needs, from the gateway's: a relay job Redis refuses is only logged. */
export function appealFiling(deps: Pick<GatewayDeps, 'sanctionsQueue' | 'logger'> & Pick<SubmitAppealDeps, 'store'>, policy: TriagePolicy, trace: string | undefined): SubmitAppealDeps {
  const onQueueError = (err: unknown) => deps.logger.warn({ err }, 'Redis refused an appeal relay job; the sweep schedules its SLA within seconds');
  return { store: deps.store, policy, sanctionsQueue: deps.sanctionsQueue, onQueueError, trace };
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * POST /v1/appeals: a game server files its player's appeal. The player must own the sanction (an
 * unknown sanction and someone else's answer alike, so nothing leaks); a sanction has one appeal,
 * and a repeat answers it (created: false). Refused with a 400 saying why: a lifted, expired or
 * not yet effective sanction, or the policy's appeals.window since the sanction started has passed.
 * The appeal is stored with its SLA deadline as an effect (the outbox), which a relay job
 * schedules at once (the sweep would, had Redis refused the job).
 */
export async function submitAppeal(deps: SubmitAppealDeps, body: SubmitAppealBody, now = Date.now()): Promise<SubmitAppealResponse> {
  const settings = appealSettingsOf(deps.policy);
  const sanction = await deps.store.getSanction(body.sanctionId);
  if (!sanction || sanction.userId !== body.userId) throw new AppError('NOT_FOUND', `User ${body.userId} has no sanction ${body.sanctionId}`);
  const [earlier] = await deps.store.listAppeals({ states: ['open', 'claimed', 'upheld', 'overturned'], sanctionId: sanction.id, limit: 1 });
  if (earlier) return { success: true, created: false, appeal: (await appealViews(deps.store, [earlier], settings.slaMs))[0]! };
  refuseIfNotAppealable(sanction, settings.windowMs, deps.policy.appeals.window, now);

  const id = uuidv7();
  const effects = effectsOf(id, [{ kind: 'deadline', payload: { job: { kind: 'appeal.sla.check', appealId: id }, dueAt: now + settings.slaMs } }]);
  const { appeal, created } = await deps.store.createAppeal({
    id,
    sanctionId: sanction.id,
    userId: sanction.userId,
    caseId: sanction.caseId,
    category: sanction.category,
    sanctionModeratorId: sanction.moderatorId,
    automated: isAutomatedSanction(deps.policy, sanction),
    statement: body.statement,
    at: now,
    effects,
  });
  if (created) {
    const job: SanctionJob = { kind: 'relay', sourceId: id };
    await deps.sanctionsQueue.add(job.kind, carryingTrace(job, deps.trace), { jobId: jobIdFor.sanctions(job), removeOnComplete: 1000, removeOnFail: 5000 }).catch(deps.onQueueError);
  }
  return { success: true, created, appeal: (await appealViews(deps.store, [appeal], settings.slaMs))[0]! };
}

/** Why a sanction cannot be appealed (now): the one rule POST /v1/appeals and the player's page both apply. */
export type AppealRefusal =
  | { why: 'lifted'; at: number | null }
  | { why: 'expired'; at: number | null }
  | { why: 'scheduled' }
  | { why: 'window_closed'; startedAt: number; closedAt: number };

/** null when the sanction can be appealed at `now`: active, and within the window from its start. */
export function appealRefusal(s: SanctionRecord, windowMs: number, now: number): AppealRefusal | null {
  if (s.state === 'lifted') return { why: 'lifted', at: s.liftedAt };
  if (s.state === 'expired') return { why: 'expired', at: s.expiresAt };
  if (s.state === 'scheduled') return { why: 'scheduled' };
  const startedAt = s.effectiveAt ?? s.createdAt;
  const closedAt = startedAt + windowMs;
  return now > closedAt ? { why: 'window_closed', startedAt, closedAt } : null;
}

function refuseIfNotAppealable(s: SanctionRecord, windowMs: number, window: string, now: number): void {
  const refusal = appealRefusal(s, windowMs, now);
  if (refusal === null) return;
  switch (refusal.why) {
    case 'lifted':
      throw new AppError('BAD_REQUEST', `Sanction ${s.id} was lifted${refusal.at !== null ? ` on ${iso(refusal.at)}` : ''}: there is nothing left to appeal`);
    case 'expired':
      throw new AppError('BAD_REQUEST', `Sanction ${s.id} expired${refusal.at !== null ? ` on ${iso(refusal.at)}` : ''}: there is nothing left to appeal`);
    case 'scheduled':
      throw new AppError('BAD_REQUEST', `Sanction ${s.id} has not taken effect yet: it can be appealed once it does`);
    case 'window_closed':
      throw new AppError('BAD_REQUEST', `The appeal window of sanction ${s.id} (${window} after it started on ${iso(refusal.startedAt)}) closed on ${iso(refusal.closedAt)}`);
  }
}
