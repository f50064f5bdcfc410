import { effectsOf, type EffectSpec } from '@rm/delivery';
import type { AppealRecord, NewEffect } from '@rm/storage';

/**
 * What resolving an appeal owes once committed, in order: after an overturn, its case's reporters'
 * credibility settled (done already unless a stopped process left it), the player's Redis
 * view (ban flag, ban API cache) and the webhook of the sanction's lift (cause appeal); either
 * way the webhook of `appeal.resolved`. Each webhook carries its feed seq: exactly once.
 */
export function appealEffects(decisionId: string, a: AppealRecord, outcome: 'upheld' | 'overturned' | undefined): NewEffect[] {
  if (!outcome) return [];
  const specs: EffectSpec[] = [];
  if (outcome === 'overturned') {
    // The case's reporters uncounted, if the store left that unfinished (DecisionStore.settleDecision).
    if (a.caseId !== null) specs.push({ kind: 'reports.settle', payload: { caseId: a.caseId } });
    specs.push({ kind: 'redis.user', payload: { userId: a.userId, caseId: null, change: null } });
    specs.push({ kind: 'sanction.webhook', payload: { sanctionId: a.sanctionId, type: 'sanction.lifted' } });
  }
  specs.push({ kind: 'sanction.webhook', payload: { sanctionId: a.sanctionId, type: 'appeal.resolved' } });
  return effectsOf(decisionId, specs);
}
