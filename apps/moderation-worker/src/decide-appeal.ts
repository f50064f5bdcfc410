import { AppError, type AppealDecisionJob, type AppealDecisionResult } from '@rm/contracts';
import type { EffectRelay } from '@rm/delivery';
import type { Deadlines } from '@rm/runtime';
import type { AccountStore, AppealStore, SanctionStore } from '@rm/storage';
import { appealEffects } from './appeal-effects.js';
import { planAppeal } from './appeal-state-machine.js';

/** The audit's action of each appeal decision. */
const EVENT_ACTION = { 'appeal.claim': 'claim', 'appeal.unclaim': 'unclaim', 'appeal.uphold': 'uphold', 'appeal.overturn': 'overturn' } as const;

/** How many times a decision re-reads the appeal after losing a compare-and-set race. */
const MAX_RACES = 8;

export interface AppealDecideDeps {
  store: AppealStore & AccountStore & SanctionStore;
  relay: Pick<EffectRelay, 'runSource'>;
  deadlines: Pick<Deadlines, 'schedule'>;
  /** The policy's claimTtl (a claim on an appeal expires as one on a case) and system moderator. */
  appeals: { claimTtlMs: number; systemModeratorId: string };
  onEffectError?: (err: unknown) => void;
}

/**
 * Applies one moderator decision about an appeal (claim, unclaim, uphold, overturn). Refusals are
 * answers, not failures. Idempotent: a decision already recorded answers what it answered first.
 */
export async function decideAppeal(deps: AppealDecideDeps, job: AppealDecisionJob): Promise<AppealDecisionResult> {
  try {
    return await apply(deps, job);
  } catch (err) {
    if (err instanceof AppError) return { ok: false, error: { code: err.code, message: err.message } };
    throw err;
  }
}

async function apply(deps: AppealDecideDeps, job: AppealDecisionJob): Promise<AppealDecisionResult> {
  const { store } = deps;
  const earlier = await store.findAppealDecision(job.decisionId);
  if (earlier) {
    await carryOut(deps, job.decisionId);
    await scheduleClaimExpiry(deps, job, earlier.at);
    return earlier.result as AppealDecisionResult;
  }
  if (!(await store.getModerator(job.moderatorId))) throw new AppError('NOT_FOUND', `Moderator ${job.moderatorId} is not registered`);
  let sanctionBoundModeratorId: string | null | undefined;
  for (let race = 0; race < MAX_RACES; race++) {
    const a = await store.getAppeal(job.appealId);
    if (!a) throw new AppError('NOT_FOUND', `Appeal ${job.appealId} not found`);
    // Who created the sanction never changes: read once, whatever the races.
    if (sanctionBoundModeratorId === undefined) sanctionBoundModeratorId = (await store.getSanction(a.sanctionId))?.boundModeratorId ?? null;
    const p = planAppeal(a, {
      action: job.action,
      moderatorId: job.moderatorId,
      bypassClaimCheck: job.bypassClaimCheck ?? false,
      systemModeratorId: deps.appeals.systemModeratorId,
      sanctionBoundModeratorId,
    });
    if (!p.ok) {
      const claimer = p.claimer ? await store.getModerator(p.claimer) : null;
      throw new AppError(p.code, p.claimer ? `${p.message} by ${claimer?.username ?? 'another moderator'}` : p.message);
    }
    if (p.outcome && job.reason === undefined) throw new AppError('VALIDATION_FAILED', 'reason is required to uphold or overturn an appeal', [{ field: 'reason', message: 'reason is required' }]);
    const at = Date.now();
    const result: AppealDecisionResult = { ok: true, action: job.action, appealId: a.id };
    const updated = await store.transitionAppeal({
      appealId: a.id,
      expectedVersion: a.version,
      expectedState: a.state,
      next: p.next,
      ...(p.outcome && { resolution: { outcome: p.outcome, reason: job.reason! } }),
      effects: appealEffects(job.decisionId, a, p.outcome),
      event: { decisionId: job.decisionId, action: EVENT_ACTION[job.action], moderatorId: job.moderatorId, reason: p.outcome ? job.reason! : null, at, result },
    });
    if (!updated) continue; // another decision won the race: read the appeal again
    await carryOut(deps, job.decisionId);
    await scheduleClaimExpiry(deps, job, at);
    return result;
  }
  throw new AppError('INTERNAL', 'The appeal kept changing under concurrent decisions; try again');
}

/** A claim on an appeal expires after the policy's claimTtl, as one on a case (keyed by the claim: scheduled once). */
async function scheduleClaimExpiry(deps: AppealDecideDeps, job: AppealDecisionJob, at: number): Promise<void> {
  if (job.action !== 'appeal.claim') return;
  await deps.deadlines.schedule({ kind: 'appeal.claim.expiry', appealId: job.appealId, claimDecisionId: job.decisionId }, at + deps.appeals.claimTtlMs);
}

/** The decision is committed: a failing effect stays pending for the sweep and never turns the answer into an error. */
async function carryOut(deps: AppealDecideDeps, decisionId: string): Promise<void> {
  await deps.relay.runSource(decisionId).catch((err: unknown) => deps.onEffectError?.(err));
}
