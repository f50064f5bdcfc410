import type { CaseTriageRecord } from '@rm/storage';
import { durationMs } from './duration.js';
import type { TriagePolicy } from './policy.js';

/**
 * The policy's settings for claim expiry and SLA escalation, in the shape queue health reads
 * (`QueuePolicy` of @rm/runtime), so its CLAIM_TTL / SLA / SLA_BY_CATEGORY can give way to the policy.
 */
export function queueSettingsOf(policy: TriagePolicy): { claimTtlMs: number; slaMs(category: string): number } {
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
