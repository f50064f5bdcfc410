import type { EffectRecord, Store } from '@rm/storage';

/** Carries out one effect; must be idempotent (the relay may run an effect again after a crash). */
export type EffectHandler = (effect: EffectRecord) => Promise<void>;

export interface EffectRelayOptions {
  store: Pick<Store, 'pendingEffectsOf' | 'pendingEffects' | 'completeEffect'>;
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
  constructor(private readonly options: EffectRelayOptions) {}

  /** Runs the pending effects of one source; true when none is left pending. */
  async runSource(sourceId: string): Promise<boolean> {
    for (const effect of await this.options.store.pendingEffectsOf(sourceId)) {
      const handler = this.options.handlers[effect.kind];
      try {
        if (!handler) throw new Error(`no handler for effect kind ${effect.kind}`);
        await handler(effect);
        await this.options.store.completeEffect(effect.id, Date.now());
      } catch (err) {
        this.options.onError?.(err, effect);
        return false;
      }
    }
    return true;
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
