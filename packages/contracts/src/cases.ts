import { z } from 'zod';
import { AppealEventView, AppealView } from './appeals.js';
import { EvidenceItemView } from './evidence.js';
import { ListQuery, ModeratorView } from './http.js';
import { LIMITS } from './limits.js';
import { SanctionView } from './sanctions.js';

/** Triage endpoints (docs/triage.md): the case queue, most urgent first, and one case in full. */

export const CASE_STATES = ['open', 'claimed', 'approved', 'dismissed'] as const;
export const CASE_SORTS = ['priority', 'oldest', 'newest'] as const;
/** The flags a case can carry: the triage's two (docs/triage.md) and the SLA's. */
export const CASE_FLAGS = ['suspected_brigade', 'escalated', 'sla_breached'] as const;

const word = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .min(1, `${what} must not be empty`)
    .max(64, `${what} must be at most 64 characters`);

/** GET /v1/cases: without `state`, the cases waiting for a decision (open and claimed). */
export const CasesQuery = ListQuery.extend({
  state: z.enum(CASE_STATES, { error: `state must be one of ${CASE_STATES.join(', ')}` }).optional(),
  category: word('category').optional(),
  flag: z.enum(CASE_FLAGS, { error: `flag must be one of ${CASE_FLAGS.join(', ')}` }).optional(),
  sort: z.enum(CASE_SORTS, { error: `sort must be one of ${CASE_SORTS.join(', ')}` }).optional().default('priority'),
});
export type CasesQuery = z.infer<typeof CasesQuery>;

export const CaseIdParams = z.strictObject({
  caseId: z.string().min(1, 'caseId must not be empty').max(LIMITS.idLength, `caseId must be at most ${LIMITS.idLength} characters`),
});

/** The reported player as the game platform's directory knows them (cached); null when it does not. */
export const PlayerNames = z.strictObject({ name: z.string(), displayName: z.string() });
export type PlayerNames = z.infer<typeof PlayerNames>;

export const CaseSummary = z.strictObject({
  caseId: z.string(),
  userId: z.string(),
  /** From the user directory (its cache); null when the directory has no such player or cannot answer. */
  player: PlayerNames.nullable(),
  state: z.enum(CASE_STATES),
  /** The stored priority plus, while open, the age term (docs/triage.md). */
  priority: z.number(),
  reportCount: z.number().int(),
  distinctReporters: z.number().int(),
  categories: z.array(z.string()),
  claimedBy: ModeratorView.nullable(),
  /** Milliseconds since the epoch. */
  openedAt: z.number().int(),
  lastReportAt: z.number().int(),
  flags: z.array(z.string()),
});
export type CaseSummary = z.infer<typeof CaseSummary>;

export const CasesResponse = z.strictObject({
  success: z.boolean(),
  page: z.number().int(),
  limit: z.number().int(),
  count: z.number().int(),
  cases: z.array(CaseSummary),
});
export type CasesResponse = z.infer<typeof CasesResponse>;

export const ReporterView = z.strictObject({
  id: z.string(),
  platform: z.string(),
  /** Decided cases with one of their reports: approved, dismissed. */
  approved: z.number().int(),
  dismissed: z.number().int(),
  /** (approved + 1) / (approved + dismissed + 2): 0.5 for a new reporter. */
  credibility: z.number(),
});

export const CaseReport = z.strictObject({
  id: z.string(),
  receivedAt: z.number().int(),
  reportType: z.string().nullable(),
  category: z.string(),
  answers: z.array(z.strictObject({ questionId: z.string(), answer: z.string() })),
  evidence: z.array(z.strictObject({ url: z.string(), type: z.string(), createEvidence: z.boolean().optional() })),
  /** The items asked to be kept (createEvidence urls, uploads), each with its state and our copy. */
  evidenceItems: z.array(EvidenceItemView),
  reporter: ReporterView,
});

export const CaseDecision = z.strictObject({
  decisionId: z.string(),
  action: z.string(),
  moderator: ModeratorView,
  fromState: z.enum(CASE_STATES),
  toState: z.enum(CASE_STATES),
  at: z.number().int(),
});

export const CaseDetail = CaseSummary.extend({
  reports: z.array(CaseReport),
  decisions: z.array(CaseDecision),
  /** Every sanction of the player, newest first, as GET /v1/sanctions/{userId} shows them. */
  sanctions: z.array(SanctionView),
  /** Appeals of this case's sanction, each with its story (submitted, claimed, resolved), oldest first. */
  appeals: z.array(AppealView.extend({ history: z.array(AppealEventView) })),
  /** What an approval without kind and duration would impose now: the ladder's next step for the case's category. */
  proposedSanction: z.strictObject({
    category: z.string(),
    kind: z.string(),
    label: z.string(),
    /** ISO 8601; null: permanent. */
    duration: z.string().nullable(),
    /** The player's earlier offences counted in the category (within the lookback, lifted ones not counted). */
    offences: z.number().int(),
    /** 1-based step of the category's ladder; null when the category has no ladder (a permanent ban). */
    step: z.number().int().nullable(),
  }),
});
export type CaseDetail = z.infer<typeof CaseDetail>;

export const CaseResponse = z.strictObject({ success: z.boolean(), case: CaseDetail });
export type CaseResponse = z.infer<typeof CaseResponse>;
