import type { Queue } from 'bullmq';
import { jobIdFor, type SanctionJob } from '@rm/contracts';
import { effectsOf, sanctionEndEffects, sanctionEndSource, sanctionStartEffects, type EffectRelay } from '@rm/delivery';
import type { SanctionStore } from '@rm/storage';

/**
 * How often the sweep runs, and how old a pending effect must be before the sweep takes it.
 * Together well under SCHEDULE_AHEAD_MS (effects.ts), so a deadline that waited in the outbox is
 * still scheduled before it is due.
 */
export const SWEEP_EVERY_MS = 5_000;
const SWEEP_MIN_AGE_MS = 10_000;
/** How long a done effect is kept (to look into what a decision did) before the sweep deletes it. */
export const DONE_EFFECTS_KEPT_MS = 24 * 60 * 60_000;

export interface SanctionJobDeps {
  store: SanctionStore;
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

/** How many scheduled sanctions one activation transaction takes (a wave of 10,000 is one). */
const ACTIVATE_BATCH = 20_000;

/**
 * Activates the scheduled sanctions (ban waves) due at `now`: each in the same transaction as its
 * feed event and the effects it owes (the player's Redis view, the webhook, the expiry), then
 * carries those out. Idempotent: a sanction no longer scheduled is skipped by the store.
 */
export async function activateDue(deps: SanctionJobDeps, now = Date.now()): Promise<number> {
  let activated = 0;
  for (;;) {
    const due = await deps.store.dueScheduledSanctions(now, ACTIVATE_BATCH);
    if (due.length === 0) return activated;
    const sourceId = `activate-${now}-${due[0]!.id}`;
    // Ids per sanction (`<sanction>:<i>-<kind>`), as the sanctions API records them.
    const items = due.map((s) => ({ sanctionId: s.id, effects: effectsOf(s.id, sanctionStartEffects(s)) }));
    const done = await deps.store.activateSanctions({ items, at: now, sourceId });
    activated += done.length;
    if (!(await deps.relay.runSource(sourceId))) throw new Error(`effects of ${sourceId} are still pending`);
    if (due.length < ACTIVATE_BATCH) return activated;
  }
}

/**
 * What a crash may have left behind: effects still pending (their own run died), and sanctions
 * past their end whose delayed job was lost (a Redis restored from an older state). Then the
 * outbox's done effects past their keeping.
 */
export async function sweep(deps: SanctionJobDeps, now = Date.now()): Promise<void> {
  await deps.relay.sweep(SWEEP_MIN_AGE_MS);
  // Ban waves whose delayed job was lost (or fired early): due ones take effect now.
  await activateDue(deps, now).catch(() => undefined);
  for (const s of await deps.store.dueSanctions(now - SWEEP_MIN_AGE_MS, 100)) await expireSanction(deps, s.id, now).catch(() => undefined);
  await deps.relay.prune(DONE_EFFECTS_KEPT_MS);
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
      case 'activate':
        // A job that fires a moment early (clock skew between processes) is retried with backoff.
        if (job.at > Date.now()) throw new Error(`the wave of ${new Date(job.at).toISOString()} is not due yet`);
        await activateDue(deps);
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
