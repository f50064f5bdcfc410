import type { Queue } from 'bullmq';
import { jobIdFor, type SanctionJob } from '@rm/contracts';
import { effectsOf, sanctionEndEffects, sanctionEndSource, type EffectRelay } from '@rm/delivery';
import type { Store } from '@rm/storage';

/** How often the sweep runs, and how old a pending effect must be before the sweep takes it. */
export const SWEEP_EVERY_MS = 5_000;
const SWEEP_MIN_AGE_MS = 10_000;

export interface SanctionJobDeps {
  store: Store;
  relay: EffectRelay;
}

/** Expires one sanction (its delayed job fired), with the effects that owes, then carries them out. */
export async function expireSanction(deps: SanctionJobDeps, sanctionId: string, now = Date.now()): Promise<void> {
  const s = await deps.store.getSanction(sanctionId);
  if (!s) return;
  const sourceId = sanctionEndSource('sanction.expired', sanctionId);
  if (s.state === 'active') {
    // A job that fires a moment early (clock skew between processes) is retried with backoff.
    if (s.expiresAt === null) return;
    if (s.expiresAt > now) throw new Error(`sanction ${sanctionId} is not due before ${new Date(s.expiresAt).toISOString()}`);
    await deps.store.expireSanction({ sanctionId, at: now, sourceId, effects: effectsOf(sourceId, sanctionEndEffects(s, 'sanction.expired')) });
  }
  // Also after a crash between the expiry and its effects.
  if (!(await deps.relay.runSource(sourceId))) throw new Error(`effects of ${sourceId} are still pending`);
}

/**
 * What a crash may have left behind: effects still pending (their own run died), and sanctions
 * past their end whose delayed job was lost (a Redis restored from an older state).
 */
export async function sweep(deps: SanctionJobDeps, now = Date.now()): Promise<void> {
  await deps.relay.sweep(SWEEP_MIN_AGE_MS);
  for (const s of await deps.store.dueSanctions(now - SWEEP_MIN_AGE_MS, 100)) await expireSanction(deps, s.id, now).catch(() => undefined);
}

export function handleSanctionJob(deps: SanctionJobDeps): (job: SanctionJob) => Promise<unknown> {
  return async (job) => {
    switch (job.kind) {
      case 'expire':
        return expireSanction(deps, job.sanctionId);
      case 'sweep':
        return sweep(deps);
      case 'relay':
        if (!(await deps.relay.runSource(job.sourceId))) throw new Error(`effects of ${job.sourceId} are still pending`);
        return;
    }
  };
}

/** The delayed job that expires a sanction at its end; keyed by the sanction, so scheduling twice is one job. */
export async function scheduleExpiry(queue: Queue, sanctionId: string, expiresAt: number): Promise<void> {
  const job: SanctionJob = { kind: 'expire', sanctionId };
  await queue.add(job.kind, job, { jobId: jobIdFor.sanctions(job), delay: Math.max(0, expiresAt - Date.now()), removeOnComplete: 1000, removeOnFail: 5000 });
}

/** The repeatable sweep; every moderation worker declares the same scheduler, so it runs once per period. */
export async function scheduleSweep(queue: Queue): Promise<void> {
  const job: SanctionJob = { kind: 'sweep' };
  await queue.upsertJobScheduler('sanctions-sweep', { every: SWEEP_EVERY_MS }, { name: job.kind, data: job, opts: { removeOnComplete: 100, removeOnFail: 100 } });
}
