import type { OneDecision } from '@rm/contracts';

/**
 * Applies a batch's decisions side by side (their transactions share the store's group commits),
 * hands each answer to `onDecided` as soon as it is decided, and answers them all, in order. If
 * any failed (not a refusal: an error), the job fails once all have settled, so its retry never
 * runs beside a decision still in flight; a decision already recorded answers again what it
 * answered.
 */
export async function decideAll(
  decisions: OneDecision[],
  decideOne: (decision: OneDecision) => Promise<unknown>,
  onDecided: (decision: OneDecision, answer: unknown) => void,
): Promise<unknown[]> {
  const settled = await Promise.allSettled(
    decisions.map(async (decision) => {
      const answer = await decideOne(decision);
      onDecided(decision, answer);
      return answer;
    }),
  );
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value);
}
