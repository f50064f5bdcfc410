import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRedis, openNearCache, type Redis } from '@rm/runtime';
import { ReportGuard } from './report-guard.js';
import { isBannedBy, SanctionStatusCache, sanctionVersion, tallyOf, UserStateSync } from './user-sync.js';

// A real Redis (REDIS_URL); each test under a prefix of its own.
let redis: Redis;
beforeAll(() => {
  if (!process.env.REDIS_URL) throw new Error('REDIS_URL is not set: these tests need a real Redis');
  redis = createRedis({ REDIS_URL: process.env.REDIS_URL });
});
afterAll(() => redis?.quit());

const fresh = () => `user-sync-test-${randomUUID()}`;
const ask = (guard: ReportGuard, reporterId: string) => guard.check({ keyId: 'k', rateLimit: 0, reporterId, reporterPlatform: 'gameplatform', userId: 'u1', maxPerDay: 100 });
const reporters = (...ids: string[]) => ids.map((id) => ({ platform: 'gameplatform' as const, id }));

describe('UserStateSync', () => {
  it('the ban flag follows only a newer sanction version', async () => {
    const prefix = fresh();
    const sync = new UserStateSync(redis, prefix);
    const guard = new ReportGuard(redis, prefix);
    await sync.apply('u1', { version: 2, banned: true }, null);
    expect(await ask(guard, 'a')).toEqual({ ok: false, refusal: 'banned' });
    // An older sync arriving late changes nothing.
    await sync.apply('u1', { version: 1, banned: false }, null);
    expect(await ask(guard, 'a')).toEqual({ ok: false, refusal: 'banned' });
    await sync.apply('u1', { version: 3, banned: false }, null);
    expect(await ask(guard, 'a')).toEqual({ ok: true });
  });

  it("invalidates the ban API's cached answer in the same script, never over a newer one", async () => {
    const prefix = fresh();
    const sync = new UserStateSync(redis, prefix);
    const cache = new SanctionStatusCache(redis, prefix);
    await cache.put('u1', 1, '{"v":1}');
    await sync.apply('u1', { version: 2, banned: true }, null);
    expect(await cache.get('u1')).toBeNull();
    // A rebuild that read storage before the change cannot put its answer back.
    await cache.put('u1', 1, '{"v":1}');
    expect(await cache.get('u1')).toBeNull();
    await cache.put('u1', 3, '{"v":3}');
    // A sync of an older change arriving late leaves the newer answer.
    await sync.apply('u1', { version: 2, banned: true }, null);
    expect(await cache.get('u1')).toBe('{"v":3}');
  });

  it("with a near cache, the change script's tombstone reaches the answer kept in memory", async () => {
    const prefix = fresh();
    const near = openNearCache({ REDIS_URL: process.env.REDIS_URL! }, { maxBytes: 1 << 20, ttlMs: 60_000, heartbeatMs: 1_000, onError: () => undefined, onConnectionError: () => undefined })!;
    try {
      await vi.waitFor(() => expect(near.active).toBe(true), { timeout: 5_000 });
      const sync = new UserStateSync(redis, prefix);
      const cache = new SanctionStatusCache(redis, prefix, near);
      await cache.put('u1', 1, '{"v":1}');
      expect(await cache.get('u1')).toBe('{"v":1}');
      expect(await cache.get('u1')).toBe('{"v":1}');
      await sync.apply('u1', { version: 2, banned: true }, null);
      // Kept for a minute unless Redis says the key changed: the wait is far shorter.
      await vi.waitFor(async () => expect(await cache.get('u1')).toBeNull(), { timeout: 5_000 });
      await cache.put('u1', 2, '{"v":2}');
      await vi.waitFor(async () => expect(await cache.get('u1')).toBe('{"v":2}'), { timeout: 5_000 });
    } finally {
      await near.close();
    }
  });

  it("closing a case removes only its reporters; reopening adds them back", async () => {
    const prefix = fresh();
    const sync = new UserStateSync(redis, prefix);
    const guard = new ReportGuard(redis, prefix);
    await guard.noteOpenCase('u1', reporters('decided', 'in-flight'));
    await sync.apply('u1', { version: 0, banned: false }, { kind: 'close', reporters: reporters('decided') });
    expect(await ask(guard, 'decided')).toEqual({ ok: true });
    expect(await ask(guard, 'in-flight')).toEqual({ ok: false, refusal: 'duplicate' });
    await sync.apply('u1', { version: 0, banned: false }, { kind: 'reopen', reporters: reporters('decided') });
    expect(await ask(guard, 'decided')).toEqual({ ok: false, refusal: 'duplicate' });
  });
});

describe('a case with many reporters', () => {
  it('is noted, closed and reopened whole (Lua cannot unpack 10,000 values at once)', async () => {
    const prefix = fresh();
    const sync = new UserStateSync(redis, prefix);
    const guard = new ReportGuard(redis, prefix);
    const many = reporters(...Array.from({ length: 10_000 }, (_, i) => `r${i}`));
    await guard.noteOpenCase('u1', many);
    expect(await ask(guard, 'r9999')).toEqual({ ok: false, refusal: 'duplicate' });
    await sync.apply('u1', { version: 0, banned: false }, { kind: 'close', reporters: many });
    expect(await ask(guard, 'r9999')).toEqual({ ok: true });
    await sync.apply('u1', { version: 0, banned: false }, { kind: 'reopen', reporters: many });
    expect(await ask(guard, 'r0')).toEqual({ ok: false, refusal: 'duplicate' });
  });
});

describe('SanctionStatusCache', () => {
  it('keeps the newest answer: an older rebuild cannot overwrite a change, a tombstone is a miss', async () => {
    const cache = new SanctionStatusCache(redis, fresh());
    expect(await cache.get('u1')).toBeNull();
    await cache.put('u1', 1, '{"v":1}');
    expect(await cache.get('u1')).toBe('{"v":1}');
    await cache.invalidate('u1', 2);
    expect(await cache.get('u1')).toBeNull();
    await cache.put('u1', 1, '{"v":1}');
    expect(await cache.get('u1')).toBeNull();
    await cache.put('u1', 2, '{"v":2}');
    expect(await cache.get('u1')).toBe('{"v":2}');
    await cache.put('u1', 2, '{"other":2}');
    expect(await cache.get('u1')).toBe('{"v":2}');
  });

  it('the version counts every change of a player\'s sanctions', () => {
    const version = (states: string[]) => sanctionVersion(tallyOf(states.map((state) => ({ state, blocksLogin: true }))));
    expect(version([])).toBe(0);
    expect(version(['active'])).toBe(1);
    expect(version(['lifted', 'active'])).toBe(3);
    expect(version(['scheduled', 'expired', 'lifted'])).toBe(4);
  });

  it('a player is banned by an active sanction of a login-blocking kind only', () => {
    expect(isBannedBy(tallyOf([{ state: 'active', blocksLogin: false }, { state: 'lifted', blocksLogin: true }, { state: 'scheduled', blocksLogin: true }]))).toBe(false);
    expect(isBannedBy(tallyOf([{ state: 'active', blocksLogin: true }]))).toBe(true);
  });
});
