import type { AppealDecisionResult } from '@rm/contracts';
import type { EffectRelay } from '@rm/delivery';
import type { AppealStore } from '@rm/storage';
import { SYSTEM_MODERATOR, type ExpiryOutcome } from './expire-claim.js';

const MAX_RACES = 8;

/**
 * Releases an appeal's claim whose TTL ran out, as a case's: an unclaim by the moderator `system`
 * recorded in the appeal's history, only while that claim is still the appeal's latest decision
 * (a later decision makes this job stale). The release's decision id derives from the claim's.
 */
export async function expireAppealClaim(deps: { store: AppealStore; relay: Pick<EffectRelay, 'runSource'> }, appealId: string, claimDecisionId: string): Promise<ExpiryOutcome> {
  const decisionId = `expiry-${claimDecisionId}`;
  if (await deps.store.findAppealDecision(decisionId)) return 'released';
  for (let race = 0; race < MAX_RACES; race++) {
    const a = await deps.store.getAppeal(appealId);
    if (!a || a.state !== 'claimed') return 'stale';
    const history = await deps.store.appealHistory(appealId);
    if (history.at(-1)?.decisionId !== claimDecisionId) return 'stale';
    const at = Date.now();
    const result: AppealDecisionResult = { ok: true, action: 'appeal.unclaim', appealId };
    const updated = await deps.store.transitionAppeal({
      appealId,
      expectedVersion: a.version,
      expectedState: a.state,
      next: { state: 'open', claimedBy: null },
      event: { decisionId, action: 'unclaim', moderatorId: SYSTEM_MODERATOR.id, reason: `claim by ${a.claimedBy} expired`, at, result },
    });
    if (updated) return 'released';
  }
  return 'stale';
}
