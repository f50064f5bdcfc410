import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EffectRecord, Store } from '@rm/storage';
import { createStore } from '@rm/storage-factory';
import { EffectRelay } from './effect-relay.js';

// The relay against the real embedded store: effects are recorded by a case transition, as a
// decision records them.
let dir: string;
let store: Store;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'relay-test-'));
  store = await createStore({ DATA_DIR: dir });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A claim of a fresh case of `userId` that owes effects of these kinds, in this order, under
 * source `decisionId`; with `notBefore` the last one waits until then.
 */
async function claimOwing(kinds: string[], { userId = 'u1', decisionId = 'd1', notBefore }: { userId?: string; decisionId?: string; notBefore?: number } = {}): Promise<void> {
  const [saved] = await store.saveReports([
    {
      id: `r-${decisionId}`,
      userId,
      reporterId: 'rep1',
      reporterPlatform: 'gameplatform',
      reportType: null,
      answers: [{ questionId: 'q1', answer: 'aimbot' }],
      evidence: [],
      receivedAt: 1_000,
      user: { name: 'u1', displayName: 'U1', avatar: null },
    },
  ]);
  const c = (await store.getCase(saved!.caseId))!;
  await store.transitionCase({
    caseId: c.id,
    expectedVersion: c.version,
    expectedState: c.state,
    next: { state: 'claimed', claimedBy: 'm1' },
    effects: kinds.map((kind, i) => ({ id: `${decisionId}:${i}-${kind}`, kind, payload: null, ...(notBefore !== undefined && i === kinds.length - 1 && { notBefore }) })),
    event: { decisionId, action: 'claim', moderatorId: 'm1', at: 2_000, result: null },
  });
}

describe('EffectRelay', () => {
  it("runs a source's effects in recorded order and marks them all done", async () => {
    await claimOwing(['a', 'b', 'c']);
    const ran: string[] = [];
    const relay = new EffectRelay({ store, handlers: { a: async (e) => void ran.push(e.id), b: async (e) => void ran.push(e.id), c: async (e) => void ran.push(e.id) } });
    expect(await relay.runSource('d1')).toBe(true);
    expect(ran).toEqual(['d1:0-a', 'd1:1-b', 'd1:2-c']);
    expect(await store.pendingEffectsOf('d1')).toEqual([]);
    expect(await relay.runSource('d1')).toBe(true);
    expect(ran).toHaveLength(3);
  });

  it('stops at a failing effect, marks the ones done before it, and the next run starts from it', async () => {
    await claimOwing(['a', 'b', 'c']);
    const ran: string[] = [];
    const failures: string[] = [];
    let bFails = true;
    const relay = new EffectRelay({
      store,
      handlers: {
        a: async (e) => void ran.push(e.id),
        b: async (e) => {
          if (bFails) throw new Error('platform down');
          ran.push(e.id);
        },
        c: async (e) => void ran.push(e.id),
      },
      onError: (err, effect: EffectRecord) => failures.push(`${effect.id}: ${(err as Error).message}`),
    });
    expect(await relay.runSource('d1')).toBe(false);
    expect(failures).toEqual(['d1:1-b: platform down']);
    expect((await store.pendingEffectsOf('d1')).map((e) => e.id)).toEqual(['d1:1-b', 'd1:2-c']);

    bFails = false;
    expect(await relay.sweep(0)).toBe(1);
    expect(ran).toEqual(['d1:0-a', 'd1:1-b', 'd1:2-c']);
    expect(await store.pendingEffectsOf('d1')).toEqual([]);
  });

  it('runSplit returns once the effects before the first `later` one are done; the rest follow, then all are marked, and idle() waits for them', async () => {
    await claimOwing(['a', 'b', 'c']);
    const ran: string[] = [];
    let releaseC!: () => void;
    const cMayFinish = new Promise<void>((resolve) => (releaseC = resolve));
    const relay = new EffectRelay({
      store,
      handlers: {
        a: async (e) => void ran.push(e.id),
        b: async (e) => void ran.push(e.id),
        c: async (e) => {
          await cMayFinish;
          ran.push(e.id);
        },
      },
    });
    const errors: unknown[] = [];
    await relay.runSplit('d1', (e) => e.kind === 'b', (err) => errors.push(err));
    expect(ran[0]).toBe('d1:0-a'); // b may have begun already: the background starts at once
    let idle = false;
    const waiting = relay.idle().then(() => (idle = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(ran).toEqual(['d1:0-a', 'd1:1-b']);
    expect(idle).toBe(false); // c is still running, and nothing is marked yet
    expect(await store.pendingEffectsOf('d1')).toHaveLength(3);
    releaseC();
    await waiting;
    expect(ran).toEqual(['d1:0-a', 'd1:1-b', 'd1:2-c']);
    expect(await store.pendingEffectsOf('d1')).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('runSplit stops at a failure before the cut: what was done is marked, the rest stays pending, nothing runs in the background', async () => {
    await claimOwing(['a', 'b', 'c']);
    const ran: string[] = [];
    const relay = new EffectRelay({
      store,
      handlers: {
        a: async () => {
          throw new Error('redis down');
        },
        b: async (e) => void ran.push(e.id),
        c: async (e) => void ran.push(e.id),
      },
    });
    await relay.runSplit('d1', (e) => e.kind === 'c', () => undefined);
    await relay.idle();
    expect(ran).toEqual([]);
    expect((await store.pendingEffectsOf('d1')).map((e) => e.id)).toEqual(['d1:0-a', 'd1:1-b', 'd1:2-c']);
  });

  it('an effect that waits (notBefore) is left pending by runSplit, runSource and the sweep until it is due; then the sweep carries it out', async () => {
    await claimOwing(['a', 'later'], { notBefore: Date.now() + 300 });
    const ran: string[] = [];
    const relay = new EffectRelay({ store, handlers: { a: async (e) => void ran.push(e.id), later: async (e) => void ran.push(e.id) } });
    await relay.runSplit('d1', (e) => e.kind === 'later', () => undefined);
    await relay.idle();
    expect(await relay.runSource('d1')).toBe(true);
    expect(await relay.sweep(0)).toBe(0);
    expect(ran).toEqual(['d1:0-a']);
    expect((await store.pendingEffectsOf('d1')).map((e) => e.id)).toEqual(['d1:1-later']);
    await new Promise((r) => setTimeout(r, 350));
    expect(await relay.sweep(0)).toBe(1);
    expect(ran).toEqual(['d1:0-a', 'd1:1-later']);
    expect(await store.pendingEffectsOf('d1')).toEqual([]);
  });

  it('the sweep goes on past a full batch while every source of it finishes, and stops at a batch with a failure', async () => {
    for (const n of [1, 2, 3, 4, 5]) await claimOwing(['a'], { userId: `u${n}`, decisionId: `d${n}` });
    const ran: string[] = [];
    const relay = new EffectRelay({ store, handlers: { a: async (e) => void ran.push(e.sourceId) } });
    expect(await relay.sweep(0, 2)).toBe(5);
    expect(ran).toEqual(['d1', 'd2', 'd3', 'd4', 'd5']);

    for (const n of [6, 7, 8]) await claimOwing(['b'], { userId: `u${n}`, decisionId: `d${n}` });
    let calls = 0;
    const failing = new EffectRelay({
      store,
      handlers: {
        b: async (e) => {
          calls += 1;
          if (e.sourceId === 'd6') throw new Error('platform down');
        },
      },
    });
    // d6 comes first in every batch while it fails: one attempt per sweep, not one per batch.
    expect(await failing.sweep(0, 1)).toBe(0);
    expect(calls).toBe(1);
  });

  it('an effect kind without a handler stays pending and is reported', async () => {
    await claimOwing(['unknown']);
    const failures: string[] = [];
    const relay = new EffectRelay({ store, handlers: {}, onError: (err) => failures.push((err as Error).message) });
    expect(await relay.runSource('d1')).toBe(false);
    expect(failures).toEqual(['no handler for effect kind unknown']);
    expect(await store.pendingEffectsOf('d1')).toHaveLength(1);
  });

  it('prune deletes the effects done before the retention, batch after batch, and leaves pending ones', async () => {
    await claimOwing(['a', 'a', 'a', 'a', 'a', 'unknown']);
    const relay = new EffectRelay({ store, handlers: { a: async () => undefined } });
    expect(await relay.runSource('d1')).toBe(false);
    // Done just now: kept for the retention, deleted once older than it.
    expect(await relay.prune(60_000, 2)).toBe(0);
    expect(await relay.prune(-60_000, 2)).toBe(5);
    expect(await relay.prune(-60_000, 2)).toBe(0);
    expect((await store.pendingEffectsOf('d1')).map((e) => e.id)).toEqual(['d1:5-unknown']);
  });
});
