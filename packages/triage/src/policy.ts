import { z } from 'zod';
import { parseIsoDuration } from '@rm/contracts';

/** An ISO 8601 duration (`PT30M`, `PT4H`, `P1D`), kept as text in the policy; `durationMs` reads it. */
const duration = z.string().refine((v) => (parseIsoDuration(v) ?? 0) > 0, 'must be a positive ISO 8601 duration such as PT30M, PT4H or P1D');
const share = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');
const weight = z.number().min(0, 'must be at least 0');
const name = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'lowercase letters, digits, _ and -, at most 64');

export const CategoryPolicy = z.strictObject({
  /** How grave reports of this category are; the priority's severity term. */
  severity: z.number().min(0, 'must be at least 0').max(100, 'must be at most 100'),
  /** How long a case of this category may wait for a decision. */
  sla: duration,
});

const EscalateAction = z.strictObject({
  type: z.literal('escalate'),
  /** Added to the case's priority once the rule fired. */
  boost: weight,
});
const SanctionAction = z.strictObject({
  type: z.literal('sanction'),
  /** Length of the temporary ban. */
  duration,
});

export const Rule = z.strictObject({
  id: name,
  /** The category the counted reports must have. */
  category: name,
  /** At least this many distinct reporters... */
  minReporters: z.number().int().min(1, 'must be at least 1'),
  /** ...each with a credibility above this... */
  minCredibility: share,
  /** ...reporting within this window (ending at the case's latest report). */
  window: duration,
  action: z.discriminatedUnion('type', [EscalateAction, SanctionAction], { error: 'must be escalate or sanction' }),
});
export type Rule = z.infer<typeof Rule>;

export const TriagePolicy = z
  .strictObject({
    /** Which answer gives a report's category: the answer to `questionId`, when it names a category, else `default`. */
    category: z.strictObject({ questionId: z.string().min(1), default: name }),
    categories: z.record(name, CategoryPolicy).refine((c) => Object.keys(c).length > 0, 'must name at least one category'),
    /** priority = severity × max severity + reporters × Σ credibility of counted reporters + agePerHour × hours open + boosts. */
    weights: z.strictObject({ severity: weight, reporters: weight, agePerHour: weight }),
    brigade: z.strictObject({
      /** The burst: reports about the player within this window, ending at the latest one. */
      window: duration,
      /** At least this many distinct reporters in the window... */
      minReporters: z.number().int().min(2, 'must be at least 2'),
      /** ...of whom at least this share are suspect: new (no decided report) or below `lowCredibility`. */
      suspectShare: share,
      lowCredibility: share,
    }),
    rules: z.array(Rule).default([]),
    /** How long a claim holds before it expires (read by claim expiry). */
    claimTtl: duration,
    /** The moderator automatic sanctions are recorded as (registered with `moderator add`). */
    systemModeratorId: z.string().min(1).max(128),
  })
  .superRefine((p, ctx) => {
    if (!(p.category.default in p.categories)) {
      ctx.addIssue({ code: 'custom', path: ['category', 'default'], message: `names no category of \`categories\` (${Object.keys(p.categories).join(', ')})` });
    }
    const seen = new Set<string>();
    p.rules.forEach((rule, i) => {
      if (seen.has(rule.id)) ctx.addIssue({ code: 'custom', path: ['rules', i, 'id'], message: `duplicate rule id ${rule.id}` });
      seen.add(rule.id);
      if (!(rule.category in p.categories)) ctx.addIssue({ code: 'custom', path: ['rules', i, 'category'], message: `names no category of \`categories\`` });
    });
  });
export type TriagePolicy = z.infer<typeof TriagePolicy>;

/** The built-in policy, used when TRIAGE_POLICY is not set (docs/triage.md explains every field). */
export const DEFAULT_POLICY: TriagePolicy = {
  category: { questionId: 'category', default: 'other' },
  categories: {
    cheating: { severity: 5, sla: 'PT4H' },
    harassment: { severity: 4, sla: 'PT8H' },
    griefing: { severity: 3, sla: 'PT12H' },
    spam: { severity: 2, sla: 'P1D' },
    other: { severity: 1, sla: 'P1D' },
  },
  weights: { severity: 10, reporters: 5, agePerHour: 1 },
  brigade: { window: 'PT10M', minReporters: 10, suspectShare: 0.8, lowCredibility: 0.3 },
  rules: [],
  claimTtl: 'PT30M',
  systemModeratorId: 'system',
};
