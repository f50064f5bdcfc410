import { z } from 'zod';
import { parseIsoDuration } from './durations.js';
import { AppealFigures } from './appeals.js';

/**
 * The longest stats window: each request reads every decision, breach and appeal of its window, and
 * the console and dashboards poll it, so its cost is bounded (docs/decisions.md).
 */
export const STATS_WINDOW_MAX = 'P90D';
const STATS_WINDOW_MAX_MS = parseIsoDuration(STATS_WINDOW_MAX)!;

/** GET /v1/stats: the window the figures cover, an ISO 8601 duration back from now (default P7D, at most P90D). */
export const StatsQuery = z.strictObject({
  window: z
    .string()
    .refine((text) => (parseIsoDuration(text) ?? 0) > 0, 'window must be a positive ISO 8601 duration such as P7D or PT12H (weeks, days, hours, minutes, seconds)')
    .refine((text) => (parseIsoDuration(text) ?? 0) <= STATS_WINDOW_MAX_MS, `window must be at most ${STATS_WINDOW_MAX} (90 days)`)
    .optional()
    .default('P7D'),
});
export type StatsQuery = z.infer<typeof StatsQuery>;

/** Decisions in the window by kind; `expire` is a claim released by the claim TTL (moderator `system`). */
export const DecisionCounts = z.strictObject({
  claim: z.number().int(),
  unclaim: z.number().int(),
  expire: z.number().int(),
  approve: z.number().int(),
  dismiss: z.number().int(),
  undo: z.number().int(),
});
export type DecisionCounts = z.infer<typeof DecisionCounts>;

const ms = z.number().int().nullable();

/** Timing and quality of the decisions in the window (null where there is nothing to measure). */
const decisionFigures = {
  decisions: DecisionCounts,
  /** Median wait of a case between becoming open and unclaimed and being claimed. */
  medianTimeToClaimMs: ms,
  /** Median time from a case's opening (creation or reopening) to its approval or dismissal. */
  medianTimeToDecisionMs: ms,
  /** Share of the window's approvals and dismissals that were later undone. */
  overturnRate: z.number().min(0).max(1).nullable(),
};

/** The queue as it is now. */
const queueFigures = {
  open: z.number().int(),
  claimed: z.number().int(),
  /** Age of the oldest open or claimed case, from its creation. */
  oldestOpenAgeMs: ms,
  /** SLA breaches recorded in the window. */
  slaBreaches: z.number().int(),
  /** Open or claimed cases flagged `sla_breached` (escalated at some opening). */
  openSlaBreached: z.number().int(),
};

/** Appeals of the category's sanctions (or of this moderator's decisions) in the window. */
const appealFigures = { appeals: AppealFigures };

export const CategoryStats = z.strictObject({ category: z.string(), ...queueFigures, ...decisionFigures, ...appealFigures });
export const ModeratorStats = z.strictObject({
  moderatorId: z.string(),
  /** Cases this moderator holds now. */
  claimed: z.number().int(),
  ...decisionFigures,
  ...appealFigures,
});

export const StatsResponse = z.strictObject({
  success: z.literal(true),
  /** The window as asked, and its bounds in milliseconds since the epoch. */
  window: z.string(),
  since: z.number().int(),
  until: z.number().int(),
  ...queueFigures,
  reportsReceived: z.number().int(),
  ...decisionFigures,
  ...appealFigures,
  byModerator: z.array(ModeratorStats),
  byCategory: z.array(CategoryStats),
});
export type StatsResponse = z.infer<typeof StatsResponse>;
export type CategoryStats = z.infer<typeof CategoryStats>;
export type ModeratorStats = z.infer<typeof ModeratorStats>;
