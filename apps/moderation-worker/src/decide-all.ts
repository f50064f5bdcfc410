import type { OneDecision } from '@rm/contracts';

/**
 * Applies a batch's decisions side by side (their transactions share the store's group commits)
 * and answers theirs, in order. If any failed (not a refusal: an error), the job fails once all
 * have settled, so its retry never runs beside a decision still in flight; a decision already
 * recorded answers again what it answered.
 */
export async function decideAll(decisions: OneDecision[], decideOne: (job: OneDecision) => Promise<unknown>): Promise<unknown[]> {
  const settled = await Promise.allSettled(decisions.map(decideOne));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value);
}
