import { z } from 'zod';
import { ApproveData, ClaimData, DismissData, UndoData } from './http.js';
import { ERROR_CODES } from './errors.js';

export const DECISION_ACTIONS = ['claim', 'unclaim', 'approve', 'dismiss', 'undo'] as const;
export type DecisionAction = (typeof DECISION_ACTIONS)[number];

/** Payload of a job on the decisions queue: one moderator's command about one report's case. */
export const DecisionJob = z.discriminatedUnion('action', [
  z.object({ action: z.literal('claim'), decisionId: z.string(), reportId: z.string(), moderatorId: z.string(), requestId: z.string().optional() }),
  z.object({
    action: z.literal('unclaim'),
    decisionId: z.string(),
    reportId: z.string(),
    moderatorId: z.string(),
    bypassClaimCheck: z.boolean(),
    requestId: z.string().optional(),
  }),
  z.object({
    action: z.literal('approve'),
    decisionId: z.string(),
    reportId: z.string(),
    moderatorId: z.string(),
    /** The sanction lasts this long from the approval; absent: permanent (or the ladder's, with kind absent too). */
    durationMs: z.number().int().positive().optional(),
    /** The sanction's kind; absent with durationMs absent: the ladder's next step. */
    kind: z.string().optional(),
    /** Set when an automatic rule approved: the sanction's source. */
    ruleId: z.string().optional(),
    /**
     * A rule's approval: the case's category as the triage that fired it read it. The rule acts
     * before that triage is stored, so the stored one may be older (or absent, for a case whose
     * reports all arrived at once).
     */
    category: z.string().optional(),
    /** Shown to the player. */
    sanctionReason: z.string().optional(),
    /** DM the case's chat-platform reporters that action was taken; absent (a job of an earlier version): no DM. */
    dm: z.boolean().optional(),
    /** The moderator marked the ground illegal content under this law (the statement of reasons). */
    illegalContent: z.object({ law: z.string(), explanation: z.string().optional() }).optional(),
    requestId: z.string().optional(),
  }),
  z.object({
    action: z.literal('dismiss'),
    decisionId: z.string(),
    reportId: z.string(),
    moderatorId: z.string(),
    dm: z.boolean(),
    reason: z.string().optional(),
    requestId: z.string().optional(),
  }),
  z.object({ action: z.literal('undo'), decisionId: z.string(), reportId: z.string(), moderatorId: z.string(), requestId: z.string().optional() }),
]);
export type DecisionJob = z.infer<typeof DecisionJob>;

/**
 * What the moderation worker hands back to the waiting gateway. A refusal (wrong state, claimed by
 * someone else) is a result, not a job failure: it must not be retried.
 */
// Discriminated by `ok`, then by `action`: the gateway parses every answer, and a plain union
// tried each shape in turn (an undo's answer failed three before its own, building their errors).
export const DecisionResult = z.discriminatedUnion('ok', [
  z.discriminatedUnion('action', [
    z.object({ ok: z.literal(true), action: z.enum(['claim', 'unclaim']), data: ClaimData }),
    z.object({ ok: z.literal(true), action: z.literal('approve'), data: ApproveData }),
    z.object({ ok: z.literal(true), action: z.literal('dismiss'), data: DismissData }),
    z.object({ ok: z.literal(true), action: z.literal('undo'), data: UndoData }),
  ]),
  z.object({ ok: z.literal(false), error: z.object({ code: z.enum(ERROR_CODES), message: z.string() }) }),
]);
export type DecisionResult = z.infer<typeof DecisionResult>;

/** The `data` each action answers with (spec 4.4-4.8). */
export interface DecisionDataByAction {
  claim: z.infer<typeof ClaimData>;
  unclaim: z.infer<typeof ClaimData>;
  approve: z.infer<typeof ApproveData>;
  dismiss: z.infer<typeof DismissData>;
  undo: z.infer<typeof UndoData>;
}
