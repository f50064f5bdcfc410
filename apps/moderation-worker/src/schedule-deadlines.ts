import type { DeadlineJob, DecisionJob } from '@rm/contracts';
import type { DecisionStore, ReportStore } from '@rm/storage';
import { caseCategory } from '@rm/triage';
import type { DeadlineDeps } from './deadlines-deps.js';

export interface DueDeadline {
  job: DeadlineJob;
  dueAt: number;
}

/**
 * The deadline an applied decision starts: a claim expires after the claim TTL; an undo reopens
 * the case, whose SLA runs again. Recorded with the decision as a `deadline` effect (the outbox):
 * its job id derives from the decision, so scheduling it again adds nothing.
 */
export async function deadlineOf(deps: Pick<DeadlineDeps, 'policy' | 'triagePolicy' | 'store'>, job: DecisionJob, caseId: string, at: number): Promise<DueDeadline | null> {
  if (job.action === 'claim') return { job: { kind: 'claim.expiry', caseId, claimDecisionId: job.decisionId }, dueAt: at + deps.policy.claimTtlMs };
  if (job.action === 'undo') {
    const category = caseCategory(deps.triagePolicy, await deps.store.getCaseTriage(caseId));
    return { job: { kind: 'sla.check', caseId, openingId: job.decisionId, category }, dueAt: at + deps.policy.slaMs(category) };
  }
  return null;
}

/**
 * Schedules the deadline of a redelivered decision: one recorded before deadlines were effects
 * has none in its outbox.
 */
export async function scheduleDeadlineAgain(deps: DeadlineDeps, job: DecisionJob, caseId: string, at: number): Promise<void> {
  const due = await deadlineOf(deps, job, caseId, at);
  if (due) await deps.deadlines.schedule(due.job, due.dueAt);
}

/**
 * Whether a deadline that waited in the outbox (SCHEDULE_AHEAD_MS) has become moot for good, so
 * that no job is scheduled for it: a claim followed by any decision never expires (expireClaim
 * would find it stale), and a case decided since its opening met that opening's SLA (a reopening
 * times one of its own). An appeal's deadlines are left to their handlers.
 */
export async function deadlineMoot(store: Pick<ReportStore, 'getCase'> & Pick<DecisionStore, 'lastCaseEvent'>, job: DeadlineJob): Promise<boolean> {
  switch (job.kind) {
    case 'claim.expiry':
      return (await store.lastCaseEvent(job.caseId))?.decisionId !== job.claimDecisionId;
    case 'sla.check': {
      const c = await store.getCase(job.caseId);
      return !c || c.state === 'approved' || c.state === 'dismissed';
    }
    case 'appeal.claim.expiry':
    case 'appeal.sla.check':
      return false;
  }
}

/** Schedules a deadline's job unless it is moot (deadlineMoot): what the `deadline` effect does. */
export async function scheduleUnlessMoot(store: Pick<ReportStore, 'getCase'> & Pick<DecisionStore, 'lastCaseEvent'>, deadlines: DeadlineDeps['deadlines'], job: DeadlineJob, dueAt: number): Promise<void> {
  if (!(await deadlineMoot(store, job))) await deadlines.schedule(job, dueAt);
}
