import { z } from 'zod';

/**
 * Payload of a job on the sanctions queue: `expire` is delayed until the sanction's expiresAt;
 * `sweep` repeats every few seconds and carries out what a crash left behind (effects still
 * pending, sanctions past their end). BullMQ ids may not contain ':'; ours are uuids.
 */
export const SanctionJob = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('expire'), sanctionId: z.string() }),
  z.object({ kind: z.literal('sweep') }),
  /** Carry out the pending effects of one source now (a lift by the CLI, which has no relay of its own). */
  z.object({ kind: z.literal('relay'), sourceId: z.string() }),
  /** A scheduled ban wave takes effect: delayed until `at` (its effectiveAt); the sweep is the backstop. */
  z.object({ kind: z.literal('activate'), at: z.number().int() }),
]);
export type SanctionJob = z.infer<typeof SanctionJob>;

export function sanctionJobId(job: SanctionJob): string {
  if (job.kind === 'expire') return `expire-${job.sanctionId}`;
  if (job.kind === 'activate') return `activate-${job.at}`;
  return job.kind === 'relay' ? `relay-${job.sourceId}` : 'sweep';
}
