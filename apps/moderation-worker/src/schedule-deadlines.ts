import type { DecisionJob } from '@rm/contracts';
import { caseCategory } from '@rm/triage';
import type { DeadlineDeps } from './deadlines-deps.js';

/**
 * The deadlines an applied decision starts: a claim expires after the claim TTL; an undo reopens
 * the case, whose SLA runs again. Called after every applied decision and again by a redelivered
 * one: the job ids derive from the decision, so nothing is scheduled twice.
 */
export async function scheduleDeadlines(deps: DeadlineDeps, job: DecisionJob, applied: { caseId: string; at: number }): Promise<void> {
  const { caseId, at } = applied;
  if (job.action === 'claim') {
    await deps.deadlines.schedule({ kind: 'claim.expiry', caseId, claimDecisionId: job.decisionId }, at + deps.policy.claimTtlMs);
  } else if (job.action === 'undo') {
    const category = caseCategory(deps.triagePolicy, await deps.store.getCaseTriage(caseId));
    await deps.deadlines.schedule({ kind: 'sla.check', caseId, openingId: job.decisionId, category }, at + deps.policy.slaMs(category));
  }
}
