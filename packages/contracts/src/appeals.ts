import { z } from 'zod';
import { ERROR_CODES } from './errors.js';
import { ModeratorRef, ModeratorView } from './http.js';
import { LIMITS } from './limits.js';
import { playerId } from './player-id.js';
import { positiveIntFromQuery } from './query-params.js';
import { SanctionView } from './sanctions.js';

/** Bounds of the appeals API (docs/decisions.md, issue 28). */
export const APPEAL_LIMITS = {
  /** The player's statement: 1 to 2,000 characters (the bound, as Mastodon's). */
  statement: { min: 1, max: 2000 },
  /** The reviewer's reason, sent to the game with the outcome. */
  reason: { min: 1, max: 500 },
  list: { defaultLimit: 50, maxLimit: 100 },
} as const;

export const APPEAL_STATES = ['open', 'claimed', 'upheld', 'overturned'] as const;
export const APPEAL_ACTIONS = ['submit', 'claim', 'unclaim', 'uphold', 'overturn'] as const;

const boundedId = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .min(1, `${what} must not be empty`)
    .max(LIMITS.idLength, `${what} must be at most ${LIMITS.idLength} characters`);

/** POST /v1/appeals: a game server files its player's appeal of one of their sanctions. */
export const SubmitAppealBody = z.strictObject({
  sanctionId: boundedId('sanctionId'),
  userId: playerId('userId'),
  statement: z
    .string({ error: 'statement must be a string' })
    .min(APPEAL_LIMITS.statement.min, `statement must be ${APPEAL_LIMITS.statement.min} to ${APPEAL_LIMITS.statement.max} characters`)
    .max(APPEAL_LIMITS.statement.max, `statement must be ${APPEAL_LIMITS.statement.min} to ${APPEAL_LIMITS.statement.max} characters`),
});
export type SubmitAppealBody = z.infer<typeof SubmitAppealBody>;

/**
 * POST /v1/sanctions/{sanctionId}/appeal-link: a game server asks for the link to its player's
 * appeal page (docs/appeals.md). `userId` must own the sanction, as for POST /v1/appeals.
 */
export const AppealLinkBody = z.strictObject({ userId: playerId('userId') });
export type AppealLinkBody = z.infer<typeof AppealLinkBody>;

export const AppealLinkResponse = z.strictObject({
  success: z.literal(true),
  /** The page's address, its signed token in the path: show it to that player only. */
  url: z.string(),
  /** When the link stops working (ms since the epoch): APPEAL_LINK_TTL after it was made. */
  expiresAt: z.number().int(),
});
export type AppealLinkResponse = z.infer<typeof AppealLinkResponse>;

/** One appeal; times in ms since the epoch. */
export const AppealView = z.strictObject({
  id: z.string(),
  sanctionId: z.string(),
  userId: z.string(),
  /** The case whose approval created the sanction; null for a trusted system's sanction. */
  caseId: z.string().nullable(),
  category: z.string().nullable(),
  /** The player's statement. */
  statement: z.string(),
  state: z.enum(APPEAL_STATES),
  claimedBy: ModeratorView.nullable(),
  /** Who decided the sanction: they may not decide its appeal. */
  sanctionModerator: ModeratorView,
  /** The sanction was decided automatically (a rule or the system moderator): a person decides the appeal. */
  automated: z.boolean(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  /** When the appeal should be decided by (the policy's appeals.sla after its submission). */
  dueAt: z.number().int(),
  /** Set once it waited undecided past dueAt (escalated). */
  slaBreached: z.boolean(),
  decidedAt: z.number().int().nullable(),
  decidedBy: ModeratorView.nullable(),
  /** The reviewer's reason (sent to the game with the outcome). */
  reason: z.string().nullable(),
});
export type AppealView = z.infer<typeof AppealView>;

export const AppealEventView = z.strictObject({
  decisionId: z.string(),
  action: z.enum(APPEAL_ACTIONS),
  /** null for the submission (a game server's key). */
  moderator: ModeratorView.nullable(),
  fromState: z.enum(APPEAL_STATES).nullable(),
  toState: z.enum(APPEAL_STATES),
  reason: z.string().nullable(),
  at: z.number().int(),
});
export type AppealEventView = z.infer<typeof AppealEventView>;

/** An appeal with its story (oldest first) and the sanction it contests. */
export const AppealDetail = AppealView.extend({ history: z.array(AppealEventView), sanction: SanctionView.nullable() });
export type AppealDetail = z.infer<typeof AppealDetail>;

export const SubmitAppealResponse = z.strictObject({
  success: z.literal(true),
  /** false when the sanction already had this appeal: nothing changed. */
  created: z.boolean(),
  appeal: AppealView,
});
export type SubmitAppealResponse = z.infer<typeof SubmitAppealResponse>;

export const AppealResponse = z.strictObject({ success: z.literal(true), appeal: AppealDetail });
export type AppealResponse = z.infer<typeof AppealResponse>;

const cursorMessage = 'after must be a cursor returned as next';
/** GET /v1/appeals: the queue, oldest first, a page after `after` (the `next` of the page before). */
export const AppealsQuery = z.strictObject({
  state: z.enum(APPEAL_STATES, { error: `state must be one of ${APPEAL_STATES.join(', ')}` }).optional(),
  category: z.string({ error: 'category must be a string' }).min(1, 'category must not be empty').max(64, 'category must be at most 64 characters').optional(),
  /** Any id submit accepts: one bound for a player id everywhere. */
  userId: playerId('userId').optional(),
  after: z
    .string({ error: cursorMessage })
    .max(300, cursorMessage)
    .refine((v) => decodeAppealCursor(v) !== null, cursorMessage)
    .optional(),
  limit: positiveIntFromQuery('limit', APPEAL_LIMITS.list.maxLimit).optional().default(APPEAL_LIMITS.list.defaultLimit),
});
export type AppealsQuery = z.infer<typeof AppealsQuery>;

export const AppealsResponse = z.strictObject({
  success: z.literal(true),
  appeals: z.array(AppealView),
  /** Pass as `after` for the next page; null when this page is the last. */
  next: z.string().nullable(),
});
export type AppealsResponse = z.infer<typeof AppealsResponse>;

/** The cursor of a page: the last appeal's creation time and id, `<createdAt>.<id>`. */
export const encodeAppealCursor = (a: { createdAt: number; id: string }) => `${a.createdAt}.${a.id}`;
export function decodeAppealCursor(text: string): { createdAt: number; id: string } | null {
  const m = /^(0|[1-9]\d{0,15})\.(.+)$/.exec(text);
  return m && Number.isSafeInteger(Number(m[1])) ? { createdAt: Number(m[1]), id: m[2]! } : null;
}

export const AppealIdParams = z.strictObject({ appealId: boundedId('appealId') });

export const AppealClaimBody = z.strictObject({ moderator: ModeratorRef });
export const AppealUnclaimBody = z.strictObject({ moderator: ModeratorRef, bypassClaimCheck: z.boolean().optional() });
/** Uphold or overturn: the reviewer's reason goes to the game (and so to the player). */
export const AppealDecisionBody = z.strictObject({
  moderator: ModeratorRef,
  reason: z
    .string({ error: 'reason must be a string' })
    .min(APPEAL_LIMITS.reason.min, `reason must be ${APPEAL_LIMITS.reason.min} to ${APPEAL_LIMITS.reason.max} characters`)
    .max(APPEAL_LIMITS.reason.max, `reason must be ${APPEAL_LIMITS.reason.min} to ${APPEAL_LIMITS.reason.max} characters`),
});

export const APPEAL_DECISION_ACTIONS = ['appeal.claim', 'appeal.unclaim', 'appeal.uphold', 'appeal.overturn'] as const;
export type AppealDecisionAction = (typeof APPEAL_DECISION_ACTIONS)[number];

/** A moderator's command about an appeal: a job on the decisions queue beside case decisions. */
export const AppealDecisionJob = z.object({
  action: z.enum(APPEAL_DECISION_ACTIONS),
  decisionId: z.string(),
  appealId: z.string(),
  moderatorId: z.string(),
  bypassClaimCheck: z.boolean().optional(),
  /** Uphold and overturn: the reviewer's reason. */
  reason: z.string().optional(),
  requestId: z.string().optional(),
});
export type AppealDecisionJob = z.infer<typeof AppealDecisionJob>;

/** What the moderation worker answers for an appeal decision; the gateway reads the appeal for the view. */
export const AppealDecisionResult = z.union([
  z.object({ ok: z.literal(true), action: z.enum(APPEAL_DECISION_ACTIONS), appealId: z.string() }),
  z.object({ ok: z.literal(false), error: z.object({ code: z.enum(ERROR_CODES), message: z.string() }) }),
]);
export type AppealDecisionResult = z.infer<typeof AppealDecisionResult>;

/** Figures of appeals in a stats window: received (submitted), upheld and overturned (decided). */
export const AppealFigures = z.strictObject({
  received: z.number().int(),
  upheld: z.number().int(),
  overturned: z.number().int(),
  /** overturned / (upheld + overturned); null when none was decided. */
  overturnRate: z.number().min(0).max(1).nullable(),
});
export type AppealFigures = z.infer<typeof AppealFigures>;
