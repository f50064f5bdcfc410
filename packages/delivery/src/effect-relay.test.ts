import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore, type EffectRecord, type Store } from '@rm/storage';
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

/** A claim of a fresh case that owes effects of these kinds, in this order, under source `d1`. */
async function claimOwing(kinds: string[]): Promise<void> {
  const [saved] = await store.saveReports([
    {
      id: 'r1',
      userId: 'u1',
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
    effects: kinds.map((kind, i) => ({ id: `d1:${i}-${kind}`, kind, payload: null })),
    event: { decisionId: 'd1', action: 'claim', moderatorId: 'm1', at: 2_000, result: null },
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
