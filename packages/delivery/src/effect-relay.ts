import type { EffectRecord, Store } from '@rm/storage';

/** Carries out one effect; must be idempotent (the relay may run an effect again after a crash). */
export type EffectHandler = (effect: EffectRecord) => Promise<void>;

export interface EffectRelayOptions {
  store: Pick<Store, 'pendingEffectsOf' | 'pendingEffects' | 'completeEffects'>;
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

  /**
   * Runs the pending effects of one source; true when none is left pending. With `until`, the run
   * stops before the first effect `until` picks: that one and those after it stay pending, for a
   * later run (runInBackground) or the sweep.
   */
  async runSource(sourceId: string, until?: (effect: EffectRecord) => boolean): Promise<boolean> {
    const done: EffectRecord[] = [];
    let failed = false;
    for (const effect of await this.options.store.pendingEffectsOf(sourceId)) {
      if (until?.(effect)) {
        failed = true;
        break;
      }
      try {
        const handler = this.options.handlers[effect.kind];
        if (!handler) throw new Error(`no handler for effect kind ${effect.kind}`);
        await handler(effect);
        done.push(effect);
      } catch (err) {
        this.options.onError?.(err, effect);
        failed = true;
        break;
      }
    }
    // Marked in one write: a crash before it runs them again, which idempotent effects allow.
    try {
      if (done.length > 0) await this.options.store.completeEffects(done.map((e) => e.id), Date.now());
    } catch (err) {
      this.options.onError?.(err, done[0]!);
      return false;
    }
    return !failed;
  }

  /**
   * runSource without waiting for it. A run cut short (a crash, a failure) leaves its effects
   * pending for the sweep, as any run does; idle() waits for the runs still going (at shutdown).
   */
  runInBackground(sourceId: string, onError: (err: unknown) => void): void {
    const run = this.runSource(sourceId)
      .catch(onError)
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  /** Resolves once every background run started so far has ended. */
  async idle(): Promise<void> {
    await Promise.all([...this.running]);
  }

  /**
   * Carries out effects left pending for at least `minAgeMs` (their own run died or failed),
   * source by source, oldest first; returns how many sources it finished.
   */
  async sweep(minAgeMs: number, limit = 200): Promise<number> {
    const pending = await this.options.store.pendingEffects(Date.now() - minAgeMs, limit);
    let finished = 0;
    for (const sourceId of new Set(pending.map((e) => e.sourceId))) if (await this.runSource(sourceId)) finished += 1;
    return finished;
  }
}
