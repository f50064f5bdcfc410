import { z } from 'zod';
import { parseIsoDuration } from '@rm/contracts';

/**
 * The queue-health settings: how long a claim lasts and how long a case may wait unclaimed, per
 * category. Until the triage policy supplies them, they come from variables of the same names;
 * this module is the one place that reads them, so pointing it at the policy changes nothing else.
 */

/** The category of every case until the triage policy categorises them. */
export const DEFAULT_CATEGORY = 'uncategorized';

const duration = (name: string, fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const ms = parseIsoDuration(text);
      if (ms === null || ms <= 0) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a positive ISO 8601 duration such as PT30M (weeks, days, hours, minutes, seconds)` });
        return z.NEVER;
      }
      return ms;
    });

const slaByCategory = z
  .string()
  .optional()
  .transform((text, ctx) => {
    const out = new Map<string, number>();
    if (text === undefined) return out;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      ctx.addIssue({ code: 'custom', message: 'SLA_BY_CATEGORY must be a JSON object of category to ISO 8601 duration, e.g. {"threat":"PT15M"}' });
      return z.NEVER;
    }
    for (const [category, value] of Object.entries(parsed)) {
      const ms = typeof value === 'string' ? parseIsoDuration(value) : null;
      if (ms === null || ms <= 0) {
        ctx.addIssue({ code: 'custom', message: `SLA_BY_CATEGORY.${category} must be a positive ISO 8601 duration such as PT15M` });
        return z.NEVER;
      }
      out.set(category, ms);
    }
    return out;
  });

/** Declared by every process that schedules or reads these deadlines. */
export const queuePolicyShape = {
  /** A claim not followed by a decision within this long is released. */
  CLAIM_TTL: duration('CLAIM_TTL', 'PT30M'),
  /** How long a case may wait unclaimed before it is escalated, for every category not in SLA_BY_CATEGORY. */
  SLA: duration('SLA', 'PT1H'),
  /** Per-category SLAs, a JSON object: {"threat":"PT15M","cheating":"PT4H"}. */
  SLA_BY_CATEGORY: slaByCategory,
};
/** The settings alone, for a process that declares nothing else about them (the CLI). */
export const queuePolicyConfig = z.object(queuePolicyShape);
export type QueuePolicyConfig = z.infer<typeof queuePolicyConfig>;

export interface QueuePolicy {
  claimTtlMs: number;
  slaMs(category: string): number;
}

export function queuePolicy(config: QueuePolicyConfig): QueuePolicy {
  return { claimTtlMs: config.CLAIM_TTL, slaMs: (category) => config.SLA_BY_CATEGORY.get(category) ?? config.SLA };
}

/** The category of a case, for its SLA and the figures. One category until the triage policy lands. */
export function categoryOf(_case: { caseId: string; userId: string }): string {
  return DEFAULT_CATEGORY;
}

/** The priority band of an open case, for the open-cases gauge. One band until triage priorities land. */
export function priorityBandOf(_case: { caseId: string; userId: string; createdAt: number }): string {
  return 'all';
}
