import { z } from 'zod';
import { LIMITS } from './limits.js';
import { playerId } from './player-id.js';
import { positiveIntFromQuery } from './query-params.js';
import { IsoDuration, SanctionKindName, SanctionReason } from './sanctions.js';
import { IllegalContentBody } from './statements.js';

export const REPORT_TYPES = ['api', 'website', 'bot'] as const;
export const PLATFORMS = ['gameplatform', 'chatplatform'] as const;
export const EVIDENCE_TYPES = ['url', 's3Upload'] as const;

/**
 * A string the spec leaves unbounded (submit's questionId, evidence url, reporter.id, userId;
 * check's ids; moderator.id; dismiss's reason): any string, within the body limit (issue 18 item
 * 8; docs/decisions.md).
 */
const anyString = (what: string) => z.string({ error: `${what} must be a string` });

export const Answer = z.strictObject({
  questionId: anyString('questionId'),
  answer: z
    .string()
    .min(LIMITS.answerText.min, `answer must be ${LIMITS.answerText.min} to ${LIMITS.answerText.max} characters`)
    .max(LIMITS.answerText.max, `answer must be ${LIMITS.answerText.min} to ${LIMITS.answerText.max} characters`),
});

export const Evidence = z.strictObject({
  url: anyString('url'),
  type: z.enum(EVIDENCE_TYPES),
  createEvidence: z.boolean().optional(),
});

export const Reporter = z.strictObject({
  id: anyString('reporter.id'),
  platform: z.enum(PLATFORMS),
});

/** 2.1: body of POST /v1/reports/new. */
export const SubmitReportBody = z.strictObject({
  userId: anyString('userId'),
  answers: z
    .array(Answer)
    .min(LIMITS.answers.min, `answers must have ${LIMITS.answers.min} to ${LIMITS.answers.max} items`)
    .max(LIMITS.answers.max, `answers must have ${LIMITS.answers.min} to ${LIMITS.answers.max} items`),
  evidence: z
    .array(Evidence)
    .min(LIMITS.evidence.min, `evidence must have ${LIMITS.evidence.min} to ${LIMITS.evidence.max} items`)
    .max(LIMITS.evidence.max, `evidence must have ${LIMITS.evidence.min} to ${LIMITS.evidence.max} items`),
  reporter: Reporter,
  reportType: z.enum(REPORT_TYPES).optional(),
});
export type SubmitReportBody = z.infer<typeof SubmitReportBody>;

/**
 * Spec 2.2's UUID, case-insensitive without a flag: the OpenAPI document carries the pattern's
 * source only, and a client checking `[0-9a-f]` would refuse an upper-case id the spec allows.
 */
const UUID_PATTERN =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000)$/;

/** 2.2: 200 answer of submit. */
export const SubmitReportResponse = z.strictObject({
  success: z.literal(true),
  id: z.string().regex(UUID_PATTERN),
  message: z.string().optional(),
  appended: z.literal(true).optional(),
});
export type SubmitReportResponse = z.infer<typeof SubmitReportResponse>;

/**
 * 4.2: body of POST /v1/reports/check. Only submit's body refuses other properties (spec 2.1): here
 * and in the moderation bodies they are ignored.
 */
export const CheckBody = z.object({
  // Any string submit takes as userId and reporter.id, so whoever can report or be reported can be checked.
  userId: anyString('userId'),
  reporterId: anyString('reporterId'),
});
export type CheckBody = z.infer<typeof CheckBody>;

export const UserSummary = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  displayName: z.string(),
});

export const CheckResponse = z.strictObject({
  success: z.boolean(),
  canReport: z.boolean(),
  user: UserSummary,
  reporterId: z.string(),
  reason: z.string(),
});
export type CheckResponse = z.infer<typeof CheckResponse>;

/** 4.3: path and query of GET /v1/reports/{id}. */
export const UserIdParams = z.strictObject({ id: playerId('id') });
/** A report's id in a path: any string (an unknown one is a 404); an empty segment is another path. */
export const ReportIdParams = z.strictObject({ id: z.string().min(1, 'id must not be empty') });

export const ListQuery = z.strictObject({
  page: positiveIntFromQuery('page').optional().default(1),
  limit: positiveIntFromQuery('limit', LIMITS.list.maxLimit).optional().default(LIMITS.list.defaultLimit),
});
export type ListQuery = z.infer<typeof ListQuery>;

/** 2.5 */
export const ReportListEntry = z.strictObject({
  repid: z.string(),
  reportTimeStamp: z.number().int(),
  avurl: z.string(),
  displayname: z.string(),
  username: z.string(),
  reason: z.string(),
  evidence: z.array(z.string()),
  banned: z.boolean(),
});
export type ReportListEntry = z.infer<typeof ReportListEntry>;

export const ListResponse = z.strictObject({
  success: z.boolean(),
  page: z.number().int(),
  limit: z.number().int(),
  count: z.number().int(),
  reports: z.array(ReportListEntry),
});
export type ListResponse = z.infer<typeof ListResponse>;

/**
 * 2.3 / 2.4. Any string names a moderator (an unregistered one is a 404); other properties, such
 * as the `username` an answer gives (2.4) sent back with it, are ignored.
 */
export const ModeratorRef = z.object({ id: anyString('moderator.id') });
export const ModeratorView = z.strictObject({ id: z.string(), username: z.string() });
export type ModeratorView = z.infer<typeof ModeratorView>;

export const ClaimBody = z.object({ moderator: ModeratorRef });
export const UnclaimBody = z.object({ moderator: ModeratorRef, bypassClaimCheck: z.boolean().optional() });
/**
 * `kind`, `duration` and `reason` set the sanction the approval creates. Without kind and duration
 * it is the ladder's next step for the case's category; with a duration and no kind, a `ban`;
 * with a kind and no duration, permanent. The gateway checks `kind` against the policy's kinds.
 */
export const ApproveBody = z.object({
  /** Tell the case's chat-platform reporters that action was taken (never the penalty); default true. */
  dm: z.boolean().optional(),
  moderator: ModeratorRef,
  kind: SanctionKindName.optional(),
  duration: IsoDuration.optional(),
  reason: SanctionReason.optional(),
  /** Marks the statement's ground as illegal content under the law named (absent: a breach of the terms). */
  illegalContent: IllegalContentBody.optional(),
});
export const DismissBody = z.object({
  dm: z.boolean().optional(),
  moderator: ModeratorRef,
  reason: anyString('reason').optional(),
});
export const UndoBody = z.object({ moderator: ModeratorRef });

export const ClaimData = z.strictObject({ message: z.string(), reportId: z.string(), moderator: ModeratorView });
export const ApproveData = z.strictObject({
  message: z.string(),
  reportId: z.string(),
  moderator: ModeratorView,
  reports: z.array(z.string()),
  reportedUser: z.string(),
  hideUsername: z.boolean(),
});
export const DismissData = ApproveData.extend({ reportChannel: z.string() });
export const UndoData = z.strictObject({
  message: z.string(),
  newMessageId: z.string(),
  reports: z.array(z.string()),
  moderator: ModeratorView,
  hideUsername: z.boolean(),
});

const success = <T extends z.ZodType>(data: T) => z.strictObject({ success: z.boolean(), data });
export const ClaimResponse = success(ClaimData);
export const ApproveResponse = success(ApproveData);
export const DismissResponse = success(DismissData);
export const UndoResponse = success(UndoData);

/** Section 7. */
export const ErrorResponse = z.strictObject({
  success: z.literal(false),
  message: z.string(),
  errors: z.array(z.strictObject({ field: z.string(), message: z.string() })).optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;
