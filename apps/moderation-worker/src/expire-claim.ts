import type { DecisionJob, DecisionResult } from '@rm/contracts';
import type { EffectRelay } from '@rm/delivery';
import type { DecisionStore, ReportStore } from '@rm/storage';
import { decisionEffects } from './decision-effects.js';
import { plan } from './state-machine.js';

/** The moderator id under which the service itself decides (claims released by their TTL). */
export const SYSTEM_MODERATOR = { id: 'system', username: 'system' } as const;

/** How many times the release re-reads the case after losing a compare-and-set race. */
const MAX_RACES = 8;

export interface ExpireClaimDeps {
  store: DecisionStore & ReportStore;
  /** Carries out the effects the release recorded with it (the case-message sync), as for any decision. */
  relay: Pick<EffectRelay, 'runSource'>;
}

export type ExpiryOutcome = 'released' | 'stale';

/**
 * Releases a claim whose TTL ran out: an unclaim by the system moderator through the state
 * machine, recorded in the case history like any decision with its effects (the outbox), then the
 * usual case-message sync. Only
 * while the claim is still the case's latest decision: a decision or a re-claim after it makes
 * this job stale, and it changes nothing. Idempotent: the release's decision id derives from the
 * claim's, so a redelivered job only repeats the notification.
 */
export async function expireClaim(deps: ExpireClaimDeps, caseId: string, claimDecisionId: string): Promise<ExpiryOutcome> {
  const decisionId = `expiry-${claimDecisionId}`;
  const earlier = await deps.store.findDecision(decisionId);
  if (earlier) {
    await deps.relay.runSource(decisionId);
    return 'released';
  }
  for (let race = 0; race < MAX_RACES; race++) {
    const c = await deps.store.getCase(caseId);
    if (!c || c.state !== 'claimed') return 'stale';
    const history = await deps.store.caseHistory(caseId);
    if (history.at(-1)?.decisionId !== claimDecisionId) return 'stale';
    const p = plan(c, { action: 'unclaim', moderatorId: SYSTEM_MODERATOR.id, bypassClaimCheck: true });
    if (!p.ok) return 'stale';
    const [reportId] = await deps.store.caseReportIds(caseId);
    const at = Date.now();
    const result: DecisionResult = {
      ok: true,
      action: 'unclaim',
      data: { message: `Claim by ${c.claimedBy} expired; the case is open again`, reportId: reportId ?? '', moderator: { ...SYSTEM_MODERATOR } },
    };
    const updated = await deps.store.transitionCase({
      caseId,
      expectedVersion: c.version,
      expectedState: c.state,
      next: p.next,
      effects: decisionEffects(releaseJob(decisionId, reportId ?? ''), c, at, { expiresAt: null, deadline: null }),
      event: { decisionId, action: 'unclaim', moderatorId: SYSTEM_MODERATOR.id, at, result },
    });
    if (!updated) continue; // a decision landed meanwhile: read again (it makes this job stale)
    await deps.relay.runSource(decisionId);
    return 'released';
  }
  return 'stale';
}

/** The release as the decision job it amounts to, for the effects it owes. */
function releaseJob(decisionId: string, reportId: string): DecisionJob {
  return { action: 'unclaim', decisionId, reportId, moderatorId: SYSTEM_MODERATOR.id, bypassClaimCheck: true };
}
