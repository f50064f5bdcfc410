import type { EffectRecord, EffectStore } from '@rm/storage';

/** Carries out one effect; must be idempotent (the relay may run an effect again after a crash). */
export type EffectHandler = (effect: EffectRecord) => Promise<void>;

export interface EffectRelayOptions {
  store: EffectStore;
  handlers: Record<string, EffectHandler>;
  onError?: (err: unknown, effect: EffectRecord) => void;
}

/**
 * The outbox relay: effects are recorded in the same store transaction as the change that owes
 * them (a decision, a lift, an expiry), and carried out from that record until each is marked
 * done. Every handler is idempotent (keyed jobs, versioned Redis writes, delivery records), so an
 * effect run again after a crash between doing it and marking it done happens once.
 *
 * A source's effects run in the order they were recorded and stop at the first failure, so a
 * later effect never overtakes an earlier one (the case's message is remembered before the chat
 * sync that edits it); the sweep retries the rest.
 */
export class EffectRelay {
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly options: EffectRelayOptions) {}

  /** Runs the pending effects of one source that are due; true when none of those is left pending. */
  async runSource(sourceId: string): Promise<boolean> {
    const done: EffectRecord[] = [];
    const ok = await this.carryOut(await this.dueEffectsOf(sourceId), done);
    return (await this.markDone(done)) && ok;
  }

  /**
   * The source's pending effects but those that wait (NewEffect.notBefore) for a later time: the
   * sweep carries those out once due. They sort last, after the source's other effects.
   */
  private async dueEffectsOf(sourceId: string, recorded?: EffectRecord[]): Promise<EffectRecord[]> {
    const now = Date.now();
    return (recorded ?? (await this.options.store.pendingEffectsOf(sourceId))).filter((e) => e.createdAt <= now);
  }

  /**
   * Runs the source's pending effects up to the first one `later` picks, then returns; that one
   * and those after it run in the background (idle() waits for them), and all that were done are
   * marked in one write at the end. A crash in between leaves them pending for the sweep, and runs
   * the first part again, which idempotent effects allow.
   *
   * `recorded`: the source's effects as the caller's transaction has just committed them
   * (`recordedEffects`), the source's only ones, so they are not read back.
   */
  async runSplit(sourceId: string, later: (effect: EffectRecord) => boolean, onError: (err: unknown) => void, recorded?: EffectRecord[]): Promise<void> {
    const effects = await this.dueEffectsOf(sourceId, recorded);
    const cut = effects.findIndex(later);
    const done: EffectRecord[] = [];
    const ok = await this.carryOut(cut < 0 ? effects : effects.slice(0, cut), done);
    if (!ok || cut < 0) {
      await this.markDone(done);
      return;
    }
    const rest = (async () => {
      await this.carryOut(effects.slice(cut), done);
      await this.markDone(done);
    })()
      .catch(onError)
      .finally(() => this.running.delete(rest));
    this.running.add(rest);
  }

  /** Carries out `effects` in order into `done`, stopping at the first failure; false if one failed. */
  private async carryOut(effects: EffectRecord[], done: EffectRecord[]): Promise<boolean> {
    for (const effect of effects) {
      try {
        const handler = this.options.handlers[effect.kind];
        if (!handler) throw new Error(`no handler for effect kind ${effect.kind}`);
        await handler(effect);
        done.push(effect);
      } catch (err) {
        this.options.onError?.(err, effect);
        return false;
      }
    }
    return true;
  }

  /** Marks `done` in one write: a crash before it runs them again, which idempotent effects allow. */
  private async markDone(done: EffectRecord[]): Promise<boolean> {
    try {
      if (done.length > 0) await this.options.store.completeEffects(done.map((e) => e.id), Date.now());
      return true;
    } catch (err) {
      this.options.onError?.(err, done[0]!);
      return false;
    }
  }

  /** Resolves once every background run started so far has ended. */
  async idle(): Promise<void> {
    await Promise.all([...this.running]);
  }

  /**
   * Carries out effects pending for at least `minAgeMs` (their own run died or failed, or they
   * waited and are due now), source by source, oldest first, `limit` at a time while every source
   * of a full batch finishes (so deadlines coming due together do not wait a sweep each), up to
   * `maxBatches`; returns how many sources it finished.
   */
  async sweep(minAgeMs: number, limit = 200, maxBatches = 10): Promise<number> {
    let finished = 0;
    for (let i = 0; i < maxBatches; i++) {
      const pending = await this.options.store.pendingEffects(Date.now() - minAgeMs, limit);
      const sources = new Set(pending.map((e) => e.sourceId));
      let finishedNow = 0;
      for (const sourceId of sources) if (await this.runSource(sourceId)) finishedNow += 1;
      finished += finishedNow;
      // A failing source would come first again: the next sweep retries it.
      if (pending.length < limit || finishedNow < sources.size) break;
    }
    return finished;
  }

  /**
   * Deletes effects done more than `retentionMs` ago, `batch` at a time (each its own short write),
   * up to `maxBatches`; the outbox would otherwise grow by every decision's effects for ever.
   * Returns how many it deleted.
   */
  async prune(retentionMs: number, batch = 1_000, maxBatches = 20): Promise<number> {
    const before = Date.now() - retentionMs;
    let deleted = 0;
    for (let i = 0; i < maxBatches; i++) {
      const n = await this.options.store.pruneEffects(before, batch);
      deleted += n;
      if (n < batch) break;
    }
    return deleted;
  }
}
