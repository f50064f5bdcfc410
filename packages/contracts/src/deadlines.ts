import { z } from 'zod';

/**
 * Payload of a job on the deadlines queue: a delayed job that fires when something about a case
 * is due. Each names what it was scheduled for, so a job that fires after the case moved on sees
 * that it is stale and does nothing.
 */
export const DeadlineJob = z.discriminatedUnion('kind', [
  /** The claim made by decision `claimDecisionId` expires, unless another decision followed it. */
  z.object({ kind: z.literal('claim.expiry'), caseId: z.string(), claimDecisionId: z.string() }),
  /**
   * The case must be claimed by now. `openingId` names the opening the SLA runs for: `opened` for
   * the case's creation, else the id of the undo that reopened it.
   */
  z.object({ kind: z.literal('sla.check'), caseId: z.string(), openingId: z.string(), category: z.string() }),
  /** The claim of an appeal made by decision `claimDecisionId` expires, unless another decision followed it. */
  z.object({ kind: z.literal('appeal.claim.expiry'), appealId: z.string(), claimDecisionId: z.string() }),
  /** The appeal must be decided by now (the policy's appeals.sla after its submission). */
  z.object({ kind: z.literal('appeal.sla.check'), appealId: z.string() }),
]);
export type DeadlineJob = z.infer<typeof DeadlineJob>;

/** The opening id of a case's creation (an undo's reopening is named by the undo's decision id). */
export const CASE_CREATED_OPENING = 'opened';

/** Deterministic, so scheduling twice (a redelivered job) schedules once. */
export function deadlineJobId(job: DeadlineJob): string {
  switch (job.kind) {
    case 'claim.expiry':
      return `claim-expiry-${job.claimDecisionId}`;
    case 'sla.check':
      return `sla-${job.caseId}-${job.openingId}`;
    case 'appeal.claim.expiry':
      return `appeal-claim-expiry-${job.claimDecisionId}`;
    case 'appeal.sla.check':
      return `appeal-sla-${job.appealId}`;
  }
}
