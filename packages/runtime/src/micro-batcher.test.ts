import { describe, expect, it } from 'vitest';
import { MicroBatcher } from './micro-batcher.js';

/** A flush that records its batches and settles only when told to. */
function heldFlush() {
  const batches: number[][] = [];
  const release: (() => void)[] = [];
  const flush = (items: number[]) => {
    batches.push(items);
    return new Promise<number[]>((resolve) => release.push(() => resolve(items.map((i) => i * 10))));
  };
  return { batches, release, flush };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('MicroBatcher', () => {
  it('sends the items of one turn together and answers each its own result', async () => {
    const { batches, release, flush } = heldFlush();
    const batcher = new MicroBatcher(flush);
    const answers = Promise.all([1, 2, 3].map((i) => batcher.submit(i)));
    await turn();
    expect(batches).toEqual([[1, 2, 3]]);
    release[0]!();
    expect(await answers).toEqual([10, 20, 30]);
  });

  it('splits a turn at maxBatch', async () => {
    const { batches, release, flush } = heldFlush();
    const batcher = new MicroBatcher(flush, { maxBatch: 2 });
    const answers = Promise.all([1, 2, 3, 4, 5].map((i) => batcher.submit(i)));
    await turn();
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
    release.forEach((r) => r());
    expect(await answers).toEqual([10, 20, 30, 40, 50]);
  });

  it('with maxInFlight, what arrives while the limit is reached leaves together when a call settles', async () => {
    const { batches, release, flush } = heldFlush();
    const batcher = new MicroBatcher(flush, { maxInFlight: 1 });
    const first = batcher.submit(1);
    await turn();
    const later = [2, 3].map((i) => batcher.submit(i));
    await turn();
    later.push(batcher.submit(4));
    await turn();
    expect(batches).toEqual([[1]]);
    release[0]!();
    expect(await first).toBe(10);
    await turn();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    release[1]!();
    expect(await Promise.all(later)).toEqual([20, 30, 40]);
  });

  it('a failed call rejects each of its items, and the next batch still goes', async () => {
    let calls = 0;
    const batcher = new MicroBatcher(async (items: number[]) => {
      if (calls++ === 0) throw new Error('redis went away');
      return items;
    }, { maxInFlight: 1 });
    const failed = [1, 2].map((i) => batcher.submit(i).catch((e: Error) => e.message));
    await turn();
    const next = batcher.submit(3);
    expect(await Promise.all(failed)).toEqual(['redis went away', 'redis went away']);
    expect(await next).toBe(3);
  });
});
