import type { CaseTriageRecord } from '@rm/storage';
import { durationMs } from './duration.js';
import type { TriagePolicy } from './policy.js';

/** What queue health times: how long a claim lasts, how long a case of a category may wait unclaimed. */
export interface QueuePolicy {
  claimTtlMs: number;
  slaMs(category: string): number;
}

/** The policy's settings for claim expiry and SLA escalation; a category it does not name gets the default's SLA. */
export function queueSettingsOf(policy: TriagePolicy): QueuePolicy {
  const fallback = durationMs(policy.categories[policy.category.default]!.sla);
  return {
    claimTtlMs: durationMs(policy.claimTtl),
    slaMs: (category) => {
      const c = policy.categories[category];
      return c ? durationMs(c.sla) : fallback;
    },
  };
}

/** A case's one category for SLAs and figures: its most severe, the default before it is triaged. */
export function caseCategory(policy: TriagePolicy, triage: Pick<CaseTriageRecord, 'categories'> | null): string {
  const categories = triage?.categories ?? [];
  if (categories.length === 0) return policy.category.default;
  return categories.reduce((best, c) => ((policy.categories[c]?.severity ?? 0) > (policy.categories[best]?.severity ?? 0) ? c : best));
}
