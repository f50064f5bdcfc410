import { z } from 'zod';
import { AUTOMATED_DECISIONS, STATEMENT_GROUNDS } from './statements.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
export const DAY_MS = 86_400_000;

/**
 * A bound of the period: a date (`2026-01-01`, a whole UTC day) or an RFC 3339 date-time. As
 * `from` a date is the start of that day; as `to` it is the end of that day (the day is in the
 * period), while a date-time `to` is exclusive.
 */
function bound(field: 'from' | 'to') {
  const message = `${field} must be a date (2026-01-31) or an RFC 3339 date-time (2026-01-31T12:00:00Z)`;
  return z
    .string({ error: message })
    .refine((v) => (DATE.test(v) || DATE_TIME.test(v)) && isRealDay(v), message);
}

/** A checked bound in ms since the epoch: a date `to` includes its whole day. */
export function periodBound(value: string, field: 'from' | 'to'): number {
  return DATE.test(value) && field === 'to' ? Date.parse(value) + DAY_MS : Date.parse(value);
}
/** Parses, and names a day that exists (Date.parse rolls 2026-02-30 over to March 2). */
function isRealDay(v: string): boolean {
  const [y, m, d] = v.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return !Number.isNaN(Date.parse(v)) && day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

/** GET /v1/transparency?from=&to= (admin keys): the period's figures. */
export const TransparencyQuery = z.strictObject({ from: bound('from'), to: bound('to') });
export type TransparencyQuery = z.infer<typeof TransparencyQuery>;

const count = z.number().int();
const ms = z.number().int().nullable();

/**
 * The appeals' figures of the period (DSA Article 15(1)(d)): complaints received, decided each way,
 * and the median time to decide one.
 */
export const TransparencyAppealFigures = z.strictObject({ received: count, upheld: count, overturned: count, medianTimeToDecisionMs: ms });

export const TransparencyResponse = z.strictObject({
  success: z.literal(true),
  /** The period: from (inclusive) to (exclusive), RFC 3339. */
  period: z.strictObject({ from: z.string(), to: z.string() }),
  /** Reports received in the period; `source` is the reporter's platform. */
  reports: z.strictObject({ total: count, byCategoryAndSource: z.array(z.strictObject({ category: z.string(), source: z.string(), count })) }),
  /** Decisions taken in the period: approvals, dismissals, and undos of either. */
  decisions: z.strictObject({ approved: count, dismissed: count, undone: count }),
  /**
   * Sanctions that took effect in the period, by kind, ground and automation (null: a sanction of
   * a version before statements of reasons). `groups` holds every combination.
   */
  sanctions: z.strictObject({
    total: count,
    byKind: z.array(z.strictObject({ kind: z.string(), count })),
    byGround: z.array(z.strictObject({ ground: z.enum(STATEMENT_GROUNDS).nullable(), count })),
    byAutomation: z.array(z.strictObject({ automatedDetection: z.boolean().nullable(), automatedDecision: z.enum(AUTOMATED_DECISIONS).nullable(), count })),
    groups: z.array(
      z.strictObject({
        kind: z.string(),
        ground: z.enum(STATEMENT_GROUNDS).nullable(),
        automatedDetection: z.boolean().nullable(),
        automatedDecision: z.enum(AUTOMATED_DECISIONS).nullable(),
        count,
      }),
    ),
  }),
  /** Median time from a case's first report to its approval or dismissal, over the period's decisions. */
  medianTimeToDecisionMs: ms,
  appeals: TransparencyAppealFigures,
});
export type TransparencyResponse = z.infer<typeof TransparencyResponse>;
