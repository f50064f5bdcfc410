import { randomUUID } from 'node:crypto';
import type { Redis as Standalone } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { NearCache } from './near-cache.js';
import { createRedis, waitForRedis } from './redis.js';

// A real Redis (REDIS_URL): its tracking, its invalidation messages, its CLIENT KILL and PAUSE.
let writer: Standalone;
let listener: Standalone;
const channel = `near-cache-test:${randomUUID()}`;
const opened: NearCache[] = [];
beforeAll(async () => {
  if (!process.env.REDIS_URL) throw new Error('REDIS_URL is not set: these tests need a real Redis');
  writer = createRedis({ REDIS_URL: process.env.REDIS_URL }) as Standalone;
  listener = createRedis({ REDIS_URL: process.env.REDIS_URL }) as Standalone;
  await listener.subscribe(channel);
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((n) => n.close()));
});
afterAll(() => Promise.all([writer?.quit(), listener?.quit()]));

/**
 * Writes (or deletes) a key, then tells this process so by a message published after the write,
 * as a worker answers a decision after its write: what learns of a change that way sees it.
 */
async function write(k: string, value: string | null): Promise<void> {
  await afterwards(() => (value === null ? writer.del(k) : writer.set(k, value)));
}

/** Runs `change` on the writer's connection, then publishes a message and waits until it is heard. */
async function afterwards(change: () => Promise<unknown>): Promise<void> {
  const heard = new Promise((resolve) => listener.once('message', resolve));
  await change();
  await writer.publish(channel, 'changed');
  await heard;
}

/** A near cache on two new connections, their ids, and a count of the reads that reached Redis. */
async function open(heartbeatMs = 1_000) {
  const target = { REDIS_URL: process.env.REDIS_URL! };
  const reads = createRedis(target, { failFast: true }) as Standalone;
  const invalidations = createRedis(target, { failFast: true, invalidations: true }) as Standalone;
  await Promise.all([waitForRedis(reads), waitForRedis(invalidations)]);
  const ids = { reads: String(await reads.client('ID')), invalidations: String(await invalidations.client('ID')) };
  const redisGet = reads.get.bind(reads);
  const fromRedis = vi.spyOn(reads, 'get');
  const near = new NearCache(reads, invalidations, { maxBytes: 1 << 20, ttlMs: 60_000, heartbeatMs, onError: () => undefined });
  opened.push(near);
  await vi.waitFor(() => expect(near.active).toBe(true), { timeout: 5_000 });
  return { near, ids, fromRedis, redisGet };
}

const key = () => `near-cache-test:${randomUUID()}`;

describe('NearCache', () => {
  it('answers a value it read from memory, and a change is seen by anything that learns of it afterwards', async () => {
    const { near, fromRedis } = await open();
    const k = key();
    await writer.set(k, 'v1');
    expect(await near.get(k)).toBe('v1');
    expect(await near.get(k)).toBe('v1');
    expect(fromRedis).toHaveBeenCalledTimes(1);
    await write(k, 'v2');
    expect(await near.get(k)).toBe('v2');
    await write(k, null);
    expect(await near.get(k)).toBeNull();
    // Nothing is kept for a missing key: it is read again.
    expect(await near.get(k)).toBeNull();
    expect(fromRedis).toHaveBeenCalledTimes(4);
  });

  it('keeps nothing read while an invalidation arrived: the answer might be older than the change', async () => {
    const { near, fromRedis, redisGet } = await open();
    const k = key();
    await writer.set(k, 'v1');
    // Redis answers v1; the key is changed and its invalidation heard before that answer is handled.
    fromRedis.mockImplementationOnce(async (key) => {
      const answer = await redisGet(key);
      await write(k, 'v2');
      return answer;
    });
    expect(await near.get(k)).toBe('v1');
    expect(await near.get(k)).toBe('v2');
  });

  it('expiry is a change too', async () => {
    const { near } = await open();
    const k = key();
    await writer.set(k, 'v1', 'PX', 50);
    expect(await near.get(k)).toBe('v1');
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Expired when next touched (Redis's sampling of keys with a TTL may take longer to find it).
    await afterwards(() => writer.exists(k));
    expect(await near.get(k)).toBeNull();
  });

  it.each(['invalidations', 'reads'] as const)('forgets everything when its %s connection is killed, and keeps values again once tracked anew', async (which) => {
    const { near, ids, fromRedis } = await open();
    const k = key();
    await writer.set(k, 'v1');
    expect(await near.get(k)).toBe('v1');
    await writer.client('KILL', 'ID', ids[which]);
    await vi.waitFor(() => expect(near.active).toBe(false), { timeout: 5_000 });
    // Changed while no invalidation could reach it (a killed subscriber hears nothing).
    await writer.set(k, 'v2');
    await vi.waitFor(() => expect(near.active).toBe(true), { timeout: 5_000 });
    expect(await near.get(k)).toBe('v2');
    await write(k, 'v3');
    expect(await near.get(k)).toBe('v3');
    expect(await near.get(k)).toBe('v3');
    expect(fromRedis).toHaveBeenCalledTimes(3);
  });

  it('unanswered pings for three heartbeats forget everything (a connection dead without closing)', async () => {
    const { near } = await open(50);
    const k = key();
    await writer.set(k, 'v1');
    expect(await near.get(k)).toBe('v1');
    // Every client's commands wait, the heartbeat's pings among them.
    await writer.client('PAUSE', '400', 'ALL');
    await vi.waitFor(() => expect(near.active).toBe(false), { timeout: 5_000 });
    await vi.waitFor(() => expect(near.active).toBe(true), { timeout: 5_000 });
    await writer.set(k, 'v2');
    expect(await near.get(k)).toBe('v2');
  });
});
