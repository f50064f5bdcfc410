import type { EffectRecord, NewEffect } from './ports/effects.js';

/** When a recorded effect is due: a waiting one at its notBefore, never before the change itself. */
export function effectCreatedAt(effect: NewEffect, at: number): number {
  return Math.max(at, effect.notBefore ?? at);
}

/**
 * What a change's effects are once its transaction committed them, as `pendingEffectsOf` would
 * read them back right after: pending, in due order, the recorded order among equals. A caller
 * that has just committed them carries them out from here without reading them back.
 */
export function recordedEffects(sourceId: string, effects: NewEffect[], at: number): EffectRecord[] {
  return effects
    .map((e): EffectRecord => ({ id: e.id, sourceId, kind: e.kind, payload: e.payload ?? null, createdAt: effectCreatedAt(e, at), doneAt: null }))
    .sort((a, b) => a.createdAt - b.createdAt);
}
