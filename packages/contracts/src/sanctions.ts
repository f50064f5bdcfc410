import { z } from 'zod';
import { parseIsoDuration } from './durations.js';
import { LIMITS } from './limits.js';
import { playerId } from './player-id.js';
import { positiveIntFromQuery, seqCursor } from './query-params.js';
import { AutomatedDecisionBody, IllegalContentBody, StatementOfReasons } from './statements.js';

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

/** A kind's id as the policy names it; whether the policy knows it is checked where the policy is. */
export const SanctionKindName = z
  .string({ error: 'kind must be a string' })
  .min(1, 'kind must not be empty')
  .max(64, 'kind must be at most 64 characters');

export const SanctionReason = z
  .string({ error: 'reason must be a string' })
  .min(SANCTION_LIMITS.reason.min, `reason must be ${SANCTION_LIMITS.reason.min} to ${SANCTION_LIMITS.reason.max} characters`)
  .max(SANCTION_LIMITS.reason.max, `reason must be ${SANCTION_LIMITS.reason.min} to ${SANCTION_LIMITS.reason.max} characters`);

export const SANCTION_STATES = ['scheduled', 'active', 'expired', 'lifted'] as const;
export const SANCTION_EVENT_TYPES = ['sanction.created', 'sanction.lifted', 'sanction.expired', 'appeal.resolved'] as const;

/** Where a sanction came from: `case`, `rule`, or a trusted system's own type (`anticheat`). */
export const SanctionSourceView = z.strictObject({ type: z.string(), id: z.string() });

/** One sanction as the ban API shows it; times in ms since the epoch. */
export const SanctionView = z.strictObject({
  id: z.string(),
  userId: z.string(),
  /** null for a trusted system's sanction (no case). */
  caseId: z.string().nullable(),
  /** A kind of the policy: `ban`, `chat`, `matchmaking`, `ranked`, `warning`... */
  kind: z.string(),
  /** Whether it blocks login while active (as the policy said when it was created). */
  blocksLogin: z.boolean(),
  /** null on sanctions of versions before kinds. */
  category: z.string().nullable(),
  source: SanctionSourceView,
  /** A scheduled ban wave's start (only on a trusted system's scheduled sanctions). */
  effectiveAt: z.number().int().optional(),
  /**
   * On an approval's sanction: what the ladder proposed (durationMs null: permanent), the
   * offences it counted, and whether the moderator or rule overrode it.
   */
  ladder: z
    .strictObject({
      offences: z.number().int(),
      proposed: z.strictObject({ kind: z.string(), durationMs: z.number().int().nullable() }),
      overridden: z.boolean(),
    })
    .optional(),
  /** Evidence a trusted system sent (only when it sent some). */
  evidence: z.array(z.strictObject({ url: z.string(), type: z.string() })).optional(),
  reason: z.string().optional(),
  moderator: z.strictObject({ id: z.string(), username: z.string() }),
  createdAt: z.number().int(),
  expiresAt: z.number().int().nullable(),
  state: z.enum(SANCTION_STATES),
  liftedAt: z.number().int().optional(),
  liftedBy: z.string().optional(),
  /** Why it was lifted (the lift's or the overturned appeal's reason), when it was. */
  liftReason: z.string().optional(),
  /** The statement of reasons, as assembled when the sanction was created; null on sanctions of earlier versions. */
  statement: StatementOfReasons.nullable(),
});
export type SanctionView = z.infer<typeof SanctionView>;

export const SanctionUserParams = z.strictObject({ userId: playerId('userId') });

export const SanctionStatusResponse = z.strictObject({
  success: z.literal(true),
  userId: z.string(),
  banned: z.boolean(),
  /** The distinct kinds active now, except warnings (which restrict nothing). */
  restrictions: z.array(z.string()),
  sanctions: z.array(SanctionView),
});
export type SanctionStatusResponse = z.infer<typeof SanctionStatusResponse>;

export const SanctionFeedQuery = z.strictObject({
  after: seqCursor().optional(),
  limit: positiveIntFromQuery('limit', SANCTION_LIMITS.feed.maxLimit).optional().default(SANCTION_LIMITS.feed.defaultLimit),
});
export type SanctionFeedQuery = z.infer<typeof SanctionFeedQuery>;

export const SanctionEventView = z.strictObject({
  seq: z.number().int(),
  type: z.enum(SANCTION_EVENT_TYPES),
  sanctionId: z.string(),
  userId: z.string(),
  caseId: z.string().nullable(),
  kind: z.string(),
  expiresAt: z.number().int().nullable(),
  at: z.number().int(),
  /** On a `sanction.lifted` by an overturned appeal: `appeal`. */
  cause: z.literal('appeal').optional(),
  /** On `appeal.resolved`: the appeal, its outcome and the reviewer's reason (show it to the player). */
  appeal: z.strictObject({ id: z.string(), outcome: z.enum(['upheld', 'overturned']), reason: z.string() }).optional(),
  /** On `sanction.created`: the sanction's statement of reasons (null on sanctions of earlier versions); null on other events. */
  statement: StatementOfReasons.nullable(),
});
export type SanctionEventView = z.infer<typeof SanctionEventView>;

export const SanctionFeedResponse = z.strictObject({
  success: z.literal(true),
  events: z.array(SanctionEventView),
  /** Pass as `after` to read on; the same cursor when the page is empty (nothing newer yet). */
  next: z.string(),
});
export type SanctionFeedResponse = z.infer<typeof SanctionFeedResponse>;

/** Bounds of the sanctions API for trusted systems (docs/decisions.md, issue 27). */
export const SANCTIONS_API_LIMITS = {
  batchItems: 1000,
  /** A ban wave may be scheduled at most this far ahead. */
  maxScheduleAheadMs: 30 * 86_400_000,
  idempotencyKey: { min: 1, max: 200 },
  sourceId: { min: 1, max: 128 },
  /** A batch of 1,000 items is far above the 64 KiB of other bodies. */
  batchBodyBytes: 4 * 1024 * 1024,
} as const;

const SOURCE_TYPE = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** `case` and `rule` name the service's own sources; a trusted system names itself otherwise. */
export const RESERVED_SOURCE_TYPES = ['case', 'rule'] as const;

export const SanctionSourceBody = z.strictObject({
  type: z
    .string({ error: 'source.type must be a string' })
    .regex(SOURCE_TYPE, 'source.type must be lowercase letters, digits, _ and -, at most 64 (e.g. anticheat)')
    .refine((t) => !(RESERVED_SOURCE_TYPES as readonly string[]).includes(t), 'source.type case and rule are reserved for approvals and automatic rules'),
  id: z
    .string({ error: 'source.id must be a string' })
    .min(SANCTIONS_API_LIMITS.sourceId.min, 'source.id must not be empty')
    .max(SANCTIONS_API_LIMITS.sourceId.max, `source.id must be at most ${SANCTIONS_API_LIMITS.sourceId.max} characters`),
});

export const SanctionEvidence = z.strictObject({
  url: z.string({ error: 'url must be a string' }).min(1, 'url must not be empty').max(2048, 'url must be at most 2048 characters'),
  type: z.enum(['url', 's3Upload'], { error: 'type must be url or s3Upload' }),
});

/** One sanction a trusted system asks for: POST /v1/sanctions, or one item of a batch. */
export const NewSanctionBody = z.strictObject({
  /** Any id submit accepts: one bound for a player id everywhere. */
  userId: playerId('userId'),
  /** A kind of the policy (checked by the gateway, which lists the known ones in the 400). */
  kind: SanctionKindName,
  /** Absent: permanent. From effectiveAt for a scheduled wave. */
  duration: IsoDuration.optional(),
  /** A category of the policy: the sanction counts on that category's ladder. */
  category: z.string({ error: 'category must be a string' }).min(1, 'category must not be empty').max(64, 'category must be at most 64 characters'),
  /** Shown to the player. */
  reason: SanctionReason,
  source: SanctionSourceBody,
  evidence: z
    .array(SanctionEvidence)
    .max(LIMITS.evidence.max, `evidence must have at most ${LIMITS.evidence.max} items`)
    .optional(),
  /** Marks the statement's ground as illegal content under the law named (absent: a breach of the category's clause). */
  illegalContent: IllegalContentBody.optional(),
  /**
   * Whether a person took part in the decision (the statement's automatedDecision): `not` when a
   * person decided, `partially` when a person confirmed what the system proposed; absent: `fully`.
   */
  automatedDecision: AutomatedDecisionBody.optional(),
  /**
   * The same key of the same API key is the same sanction, never a second one (also when two
   * requests race); reused with other fields it is a conflict. Another API key's keys are its own.
   */
  idempotencyKey: z
    .string({ error: 'idempotencyKey must be a string' })
    .min(SANCTIONS_API_LIMITS.idempotencyKey.min, 'idempotencyKey must not be empty')
    .max(SANCTIONS_API_LIMITS.idempotencyKey.max, `idempotencyKey must be at most ${SANCTIONS_API_LIMITS.idempotencyKey.max} characters`),
});
export type NewSanctionBody = z.infer<typeof NewSanctionBody>;

export const SanctionBatchBody = z.strictObject({
  /** Each item is checked on its own: a bad one is refused in its result, the others go on. */
  items: z
    .array(z.record(z.string(), z.unknown(), { error: 'each item must be an object' }), { error: 'items must be an array' })
    .min(1, `items must have 1 to ${SANCTIONS_API_LIMITS.batchItems} items`)
    .max(SANCTIONS_API_LIMITS.batchItems, `items must have 1 to ${SANCTIONS_API_LIMITS.batchItems} items`),
  /** RFC 3339; schedules the whole wave (at most 30 days ahead). Absent or past: effective now. */
  effectiveAt: z.iso.datetime({ offset: true, error: 'effectiveAt must be an RFC 3339 date-time, e.g. 2026-12-01T12:00:00Z' }).optional(),
});
export type SanctionBatchBody = z.infer<typeof SanctionBatchBody>;

export const SanctionIdParams = z.strictObject({
  sanctionId: z
    .string({ error: 'sanctionId must be a string' })
    .min(1, 'sanctionId must not be empty')
    .max(LIMITS.idLength, `sanctionId must be at most ${LIMITS.idLength} characters`),
});

export const LiftSanctionBody = z.strictObject({ reason: SanctionReason });

export const SanctionResponse = z.strictObject({
  success: z.literal(true),
  /** false when the key (or, for a lift, the end) was already there: nothing changed. */
  created: z.boolean(),
  sanction: SanctionView,
});
export type SanctionResponse = z.infer<typeof SanctionResponse>;

export const LiftSanctionResponse = z.strictObject({
  success: z.literal(true),
  /** false when the sanction was not active (lifted or expired already): nothing changed. */
  lifted: z.boolean(),
  sanction: SanctionView,
});
export type LiftSanctionResponse = z.infer<typeof LiftSanctionResponse>;

/** Why an item of a batch was not stored. */
const ItemRefusal = { message: z.string(), errors: z.array(z.strictObject({ field: z.string(), message: z.string() })) };

export const SanctionBatchResult = z.union([
  z.strictObject({ status: z.enum(['created', 'existed']), sanction: SanctionView }),
  z.strictObject({ status: z.literal('refused'), ...ItemRefusal }),
  // The item's idempotencyKey already names a sanction of this API key with other fields.
  z.strictObject({ status: z.literal('conflict'), ...ItemRefusal }),
]);
export type SanctionBatchResult = z.infer<typeof SanctionBatchResult>;

export const SanctionBatchResponse = z.strictObject({
  success: z.literal(true),
  /** One per item, in the items' order. */
  results: z.array(SanctionBatchResult),
});
export type SanctionBatchResponse = z.infer<typeof SanctionBatchResponse>;
