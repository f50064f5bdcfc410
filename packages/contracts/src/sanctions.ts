import { z } from 'zod';
import { parseIsoDuration } from './durations.js';
import { playerId } from './player-id.js';

/** Bounds we chose where the issue is silent (docs/decisions.md, "Sanctions"). */
export const SANCTION_LIMITS = {
  reason: { min: 1, max: 500 },
  /** The longest duration accepted: ten years. */
  maxDurationMs: 3650 * 86_400_000,
  feed: { defaultLimit: 100, maxLimit: 1000 },
} as const;

// Days, hours, minutes and whole seconds only: weeks and fractions are valid ISO 8601 but not
// what a moderator picks, and the issue asks for exactly these.
const SANCTION_DURATION = /^P(?:\d{1,9}D)?(?:T(?:\d{1,9}H)?(?:\d{1,9}M)?(?:\d{1,9}S)?)?$/;

/**
 * Milliseconds of a sanction's duration (`PT30S`, `PT12H`, `P7D`, `P30DT12H`); null for anything
 * else (years, months, weeks, fractions, `P`, `PT`).
 */
export function parseSanctionDuration(text: string): number | null {
  return SANCTION_DURATION.test(text) ? parseIsoDuration(text) : null;
}

const durationMessage = 'duration must be an ISO 8601 duration of days, hours, minutes and seconds, e.g. PT30S, PT12H, P7D, P30DT12H';
export const IsoDuration = z.string({ error: durationMessage }).superRefine((text, ctx) => {
  const ms = parseSanctionDuration(text);
  if (ms === null) ctx.addIssue({ code: 'custom', message: durationMessage });
  else if (ms <= 0) ctx.addIssue({ code: 'custom', message: 'duration must be longer than zero' });
  else if (ms > SANCTION_LIMITS.maxDurationMs) ctx.addIssue({ code: 'custom', message: 'duration must be at most 3650 days' });
});

export const SanctionReason = z
  .string({ error: 'reason must be a string' })
  .min(SANCTION_LIMITS.reason.min, `reason must be ${SANCTION_LIMITS.reason.min} to ${SANCTION_LIMITS.reason.max} characters`)
  .max(SANCTION_LIMITS.reason.max, `reason must be ${SANCTION_LIMITS.reason.min} to ${SANCTION_LIMITS.reason.max} characters`);

export const SANCTION_STATES = ['active', 'expired', 'lifted'] as const;
export const SANCTION_EVENT_TYPES = ['sanction.created', 'sanction.lifted', 'sanction.expired'] as const;

/** One sanction as the ban API shows it; times in ms since the epoch. */
export const SanctionView = z.strictObject({
  id: z.string(),
  userId: z.string(),
  caseId: z.string(),
  kind: z.literal('ban'),
  reason: z.string().optional(),
  moderator: z.strictObject({ id: z.string(), username: z.string() }),
  createdAt: z.number().int(),
  expiresAt: z.number().int().nullable(),
  state: z.enum(SANCTION_STATES),
  liftedAt: z.number().int().optional(),
  liftedBy: z.string().optional(),
});
export type SanctionView = z.infer<typeof SanctionView>;

export const SanctionUserParams = z.strictObject({ userId: playerId('userId') });

export const SanctionStatusResponse = z.strictObject({
  success: z.literal(true),
  userId: z.string(),
  banned: z.boolean(),
  sanctions: z.array(SanctionView),
});
export type SanctionStatusResponse = z.infer<typeof SanctionStatusResponse>;

const cursorMessage = 'after must be a cursor returned as next (a non-negative integer)';
export const SanctionFeedQuery = z.strictObject({
  after: z
    .string({ error: cursorMessage })
    .regex(/^(0|[1-9]\d{0,15})$/, cursorMessage)
    .refine((v) => Number.isSafeInteger(Number(v)), cursorMessage)
    .optional(),
  limit: z
    .preprocess(
      (v) => (v === '' ? Number.NaN : v),
      z.coerce
        .number({ error: 'limit must be an integer' })
        .int('limit must be an integer')
        .min(1, 'limit must be at least 1')
        .max(SANCTION_LIMITS.feed.maxLimit, `limit must be at most ${SANCTION_LIMITS.feed.maxLimit}`),
    )
    .optional()
    .default(SANCTION_LIMITS.feed.defaultLimit),
});
export type SanctionFeedQuery = z.infer<typeof SanctionFeedQuery>;

export const SanctionEventView = z.strictObject({
  seq: z.number().int(),
  type: z.enum(SANCTION_EVENT_TYPES),
  sanctionId: z.string(),
  userId: z.string(),
  caseId: z.string(),
  expiresAt: z.number().int().nullable(),
  at: z.number().int(),
});
export type SanctionEventView = z.infer<typeof SanctionEventView>;

export const SanctionFeedResponse = z.strictObject({
  success: z.literal(true),
  events: z.array(SanctionEventView),
  /** Pass as `after` to read on; the same cursor when the page is empty (nothing newer yet). */
  next: z.string(),
});
export type SanctionFeedResponse = z.infer<typeof SanctionFeedResponse>;
