import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ReportGuard, type GuardRequest, type Stamped } from './report-guard.js';

/**
 * Runs against a real Redis (REDIS_URL). Every test gets its own random key prefix, so tests never
 * see each other's data, and the prefix's keys are deleted afterwards.
 */

let redis: Redis;
const extraConnections: Redis[] = [];
let prefix: string;
let guard: ReportGuard;

function connect(): Redis {
  return new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1 });
}

async function allKeys(pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

async function deleteKeys(pattern: string): Promise<void> {
  const keys = await allKeys(pattern);
  if (keys.length > 0) await redis.del(...keys);
}

beforeAll(async () => {
  if (!process.env.REDIS_URL) {
    throw new Error('REDIS_URL is not set: these tests need a real Redis, e.g. REDIS_URL=redis://127.0.0.1:6379 npx vitest run');
  }
  redis = connect();
  await redis.ping();
});

afterAll(async () => {
  await Promise.all([redis, ...extraConnections].filter(Boolean).map((r) => r.quit()));
});

beforeEach(() => {
  prefix = `rg-test-${randomUUID()}`;
});

afterEach(async () => {
  await deleteKeys(`${prefix}:*`);
});

// A fixed UTC time in the middle of a minute and of a day, so `now` offsets below stay inside them.
const NOON = Date.UTC(2030, 0, 15, 12, 0, 30);
const MINUTE = 60_000;

/** A reporter on the game platform. */
const game = (id: string) => ({ platform: 'gameplatform', id });

/** A request with no rate limit and a generous daily maximum unless stated. */
const req = (over: Partial<GuardRequest> = {}): GuardRequest => ({
  keyId: 'key-1',
  rateLimit: 0,
  reporterId: 'reporter-1',
  reporterPlatform: 'gameplatform',
  userId: 'user-1',
  maxPerDay: 100,
  now: NOON,
  ...over,
});

// Both ways of checking: one script per event-loop turn (standalone Redis, the default there) and
// one script per slot (what a Redis Cluster gets), on the same Redis.
describe.each([
  { batch: true, mode: 'one script per batch' },
  { batch: false, mode: 'one script per slot' },
])('$mode', ({ batch }) => {
  beforeEach(() => {
    guard = new ReportGuard(redis, prefix, { batch });
  });

  describe('ReportGuard.reserve', () => {
    it('reserves for the first report of a user (opening the case), then appends the next reporter', async () => {
      expect(await guard.reserve(req({ reporterId: 'r1' }))).toEqual({ ok: true, appended: false });
      expect(await guard.reserve(req({ reporterId: 'r2' }))).toEqual({ ok: true, appended: true });
      expect(await guard.reserve(req({ reporterId: 'r3' }))).toEqual({ ok: true, appended: true });
    });

    it('Redis forgetting its scripts (SCRIPT FLUSH, as after a restart) changes nothing: the next call sends them whole', async () => {
      expect(await guard.reserve(req({ reporterId: 'r1' }))).toEqual({ ok: true, appended: false });
      await redis.script('FLUSH');
      expect(await guard.reserve(req({ reporterId: 'r2' }))).toEqual({ ok: true, appended: true });
      expect(await guard.reserve(req({ reporterId: 'r2' }))).toEqual({ ok: false, refusal: 'duplicate' });
    });

    it('refuses the same reporter on the same open case as a duplicate, without counting it', async () => {
      expect(await guard.reserve(req({ reporterId: 'r1', maxPerDay: 2 }))).toMatchObject({ ok: true });
      expect(await guard.reserve(req({ reporterId: 'r1', maxPerDay: 2 }))).toEqual({ ok: false, refusal: 'duplicate' });
      expect(await guard.reserve(req({ reporterId: 'r1', maxPerDay: 2 }))).toEqual({ ok: false, refusal: 'duplicate' });
      // The refused duplicates did not use up r1's second report of the day, and a different user is a
      // different case: r1 is not a duplicate there.
      expect(await guard.reserve(req({ reporterId: 'r1', maxPerDay: 2, userId: 'user-2' }))).toEqual({ ok: true, appended: false });
    });

    it('refuses once the reporter reached the daily maximum; other reporters are unaffected', async () => {
      const max = 3;
      for (let i = 0; i < max; i++) {
        expect(await guard.reserve(req({ reporterId: 'busy', userId: `user-${i}`, maxPerDay: max }))).toMatchObject({ ok: true });
      }
      expect(await guard.reserve(req({ reporterId: 'busy', userId: 'user-x', maxPerDay: max }))).toEqual({ ok: false, refusal: 'daily' });
      expect(await guard.reserve(req({ reporterId: 'quiet', userId: 'user-x', maxPerDay: max }))).toEqual({ ok: true, appended: false });
    });

    it('the daily maximum is per UTC day: it resets at midnight UTC', async () => {
      const lastMinuteOfDay = Date.UTC(2030, 0, 15, 23, 59, 30);
      const firstMinuteOfNextDay = Date.UTC(2030, 0, 16, 0, 0, 30);
      const morning = Date.UTC(2030, 0, 15, 0, 0, 30);
      expect(await guard.reserve(req({ reporterId: 'r', userId: 'u1', maxPerDay: 1, now: morning }))).toMatchObject({ ok: true });
      // Later the same UTC day: still over.
      expect(await guard.reserve(req({ reporterId: 'r', userId: 'u2', maxPerDay: 1, now: lastMinuteOfDay }))).toEqual({
        ok: false,
        refusal: 'daily',
      });
      // Just after midnight UTC: a fresh allowance.
      expect(await guard.reserve(req({ reporterId: 'r', userId: 'u2', maxPerDay: 1, now: firstMinuteOfNextDay }))).toEqual({
        ok: true,
        appended: false,
      });
      expect(await guard.reserve(req({ reporterId: 'r', userId: 'u3', maxPerDay: 1, now: firstMinuteOfNextDay + 60 * MINUTE }))).toEqual({
        ok: false,
        refusal: 'daily',
      });
    });

    it('refuses reports about a banned user, and reserves for them again once the ban is lifted', async () => {
      await guard.syncUser('user-1', { banned: true, openCaseReporters: null });
      expect(await guard.reserve(req({ reporterId: 'r1' }))).toEqual({ ok: false, refusal: 'banned' });
      expect(await guard.check(req({ reporterId: 'r1' }))).toEqual({ ok: false, refusal: 'banned' });
      // The ban is per user.
      expect(await guard.reserve(req({ reporterId: 'r1', userId: 'user-2' }))).toEqual({ ok: true, appended: false });

      await guard.syncUser('user-1', { banned: false, openCaseReporters: null });
      expect(await guard.reserve(req({ reporterId: 'r1' }))).toEqual({ ok: true, appended: false });
    });

    it('syncUser is idempotent', async () => {
      await guard.syncUser('user-1', { banned: true, openCaseReporters: [game('a')] });
      await guard.syncUser('user-1', { banned: true, openCaseReporters: [game('a')] });
      expect(await guard.reserve(req({ reporterId: 'b' }))).toEqual({ ok: false, refusal: 'banned' });
      await guard.syncUser('user-1', { banned: false, openCaseReporters: [game('a')] });
      await guard.syncUser('user-1', { banned: false, openCaseReporters: [game('a')] });
      expect(await guard.reserve(req({ reporterId: 'a' }))).toEqual({ ok: false, refusal: 'duplicate' });
      expect(await guard.reserve(req({ reporterId: 'b' }))).toEqual({ ok: true, appended: true });
    });

    it('limits each API key per minute, and a new minute resets the count', async () => {
      const rated = (i: number, over: Partial<GuardRequest> = {}) => req({ rateLimit: 3, reporterId: `r${i}`, userId: `u${i}`, ...over });
      for (let i = 0; i < 3; i++) expect(await guard.reserve(rated(i))).toMatchObject({ ok: true });
      expect(await guard.reserve(rated(3))).toEqual({ ok: false, refusal: 'rate' });
      expect(await guard.reserve(rated(4, { now: NOON + 29_000 }))).toEqual({ ok: false, refusal: 'rate' });
      // Another key has its own limit.
      expect(await guard.reserve(rated(5, { keyId: 'key-2' }))).toMatchObject({ ok: true });
      // The next minute starts afresh.
      expect(await guard.reserve(rated(6, { now: NOON + MINUTE }))).toMatchObject({ ok: true });
    });

    it('a rate refusal reserves nothing: the reporter can still report that user later', async () => {
      expect(await guard.reserve(req({ rateLimit: 1, reporterId: 'other', userId: 'u0' }))).toMatchObject({ ok: true });
      expect(await guard.reserve(req({ rateLimit: 1, reporterId: 'r', userId: 'u', maxPerDay: 1 }))).toEqual({ ok: false, refusal: 'rate' });
      expect(await guard.reserve(req({ rateLimit: 1, reporterId: 'r', userId: 'u', maxPerDay: 1, now: NOON + MINUTE }))).toEqual({
        ok: true,
        appended: false,
      });
    });

    it('20 parallel reservations by one reporter with maxPerDay 5 make exactly 5', async () => {
      const connections = Array.from({ length: 4 }, () => connect());
      extraConnections.push(...connections);
      const guards = connections.map((c) => new ReportGuard(c, prefix, { batch }));
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => guards[i % guards.length]!.reserve(req({ reporterId: 'eager', userId: `user-${i}`, maxPerDay: 5 }))),
      );
      expect(outcomes.filter((o) => o.ok)).toHaveLength(5);
      expect(outcomes.filter((o) => !o.ok)).toEqual(Array.from({ length: 15 }, () => ({ ok: false, refusal: 'daily' })));
    });

    it('parallel reservations by one reporter about one user: one is made, the others are duplicates', async () => {
      const outcomes = await Promise.all(Array.from({ length: 5 }, () => guard.reserve(req({ reporterId: 'twice' }))));
      expect(outcomes.filter((o) => o.ok)).toEqual([{ ok: true, appended: false }]);
      expect(outcomes.filter((o) => !o.ok)).toEqual(Array.from({ length: 4 }, () => ({ ok: false, refusal: 'duplicate' })));
    });

    it('ids with commas, quotes, emoji, a lone surrogate or an escape written out are checked like any other, and do not fail their neighbours', async () => {
      const odd = ['a,b', '"quoted"\\', '😀 ünï', '\ud800lone', '\u0000nul', '\\ud800 written out'];
      const first = await Promise.all([...odd, 'plain'].map((reporterId) => guard.reserve(req({ reporterId, userId: `odd-${reporterId}` }))));
      expect(first).toEqual(Array.from({ length: 7 }, () => ({ ok: true, appended: false })));
      const again = await Promise.all(odd.map((reporterId) => guard.reserve(req({ reporterId, userId: `odd-${reporterId}` }))));
      expect(again).toEqual(Array.from({ length: 6 }, () => ({ ok: false, refusal: 'duplicate' })));
    });

    it('20 parallel reservations about one user by different reporters open exactly one case', async () => {
      const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => guard.reserve(req({ reporterId: `r${i}` }))));
      expect(outcomes.every((o) => o.ok)).toBe(true);
      expect(outcomes.filter((o) => o.ok && !o.appended)).toHaveLength(1);
    });
  });

  describe('ReportGuard.reserve: a refusal reserves nothing', () => {
    it('a refusal by one check gives back what the others reserved', async () => {
      await guard.syncUser('banned-user', { banned: true, openCaseReporters: null });
      // Refused as banned: the daily reservation made at the same time is released.
      expect(await guard.reserve(req({ reporterId: 'r', userId: 'banned-user', maxPerDay: 1 }))).toEqual({ ok: false, refusal: 'banned' });
      // Refused for the day: the reporter's place in the user's case is released, and the case stays unopened.
      expect(await guard.reserve(req({ reporterId: 'r', userId: 'u1', maxPerDay: 1 }))).toEqual({ ok: true, appended: false });
      expect(await guard.reserve(req({ reporterId: 'r', userId: 'u2', maxPerDay: 1 }))).toEqual({ ok: false, refusal: 'daily' });
      expect(await guard.reserve(req({ reporterId: 'other', userId: 'u2' }))).toEqual({ ok: true, appended: false });
    });

    it('keys of one user share a hash tag; keys of different users, reporters and API keys do not', async () => {
      await guard.reserve(req({ rateLimit: 10, keyId: 'k1', reporterId: 'r1', userId: 'u1' }));
      await guard.syncUser('u1', { banned: true, openCaseReporters: [game('r1')] });
      const keys = await allKeys(`${prefix}:*`);
      const tag = (k: string) => k.slice(k.indexOf('{') + 1, k.indexOf('}'));
      expect(new Set(keys.filter((k) => k.includes(':u:')).map(tag))).toEqual(new Set(['u1']));
      expect(new Set(keys.map(tag))).toEqual(new Set(['u1', 'r:gameplatform:r1', 'k:k1']));
    });
  });

  describe('ReportGuard.release', () => {
    it('undoes a reservation that opened the case: count back, reporter removed, open flag removed', async () => {
      const r = req({ reporterId: 'r1', maxPerDay: 1 });
      const reserved = await guard.reserve(r);
      expect(reserved).toEqual({ ok: true, appended: false });
      await guard.release(r, false);

      // Count back: r1 may report again today (maxPerDay 1). Reporter removed: no duplicate.
      // Open flag removed: the next reservation opens the case again (appended false).
      expect(await guard.reserve(r)).toEqual({ ok: true, appended: false });
    });

    it('undoes an appended reservation but leaves the open case and its other reporters', async () => {
      expect(await guard.reserve(req({ reporterId: 'r1' }))).toEqual({ ok: true, appended: false });
      const r2 = req({ reporterId: 'r2', maxPerDay: 1 });
      expect(await guard.reserve(r2)).toEqual({ ok: true, appended: true });
      await guard.release(r2, true);

      expect(await guard.reserve(req({ reporterId: 'r1' }))).toEqual({ ok: false, refusal: 'duplicate' });
      expect(await guard.reserve(req({ reporterId: 'r3' }))).toEqual({ ok: true, appended: true });
      expect(await guard.reserve(r2)).toEqual({ ok: true, appended: true });
    });

    it('undoing the reservation that opened the case keeps it open when another reporter joined meanwhile', async () => {
      const opener = req({ reporterId: 'r1' });
      expect(await guard.reserve(opener)).toEqual({ ok: true, appended: false });
      expect(await guard.reserve(req({ reporterId: 'r2' }))).toEqual({ ok: true, appended: true });
      await guard.release(opener, false);
      expect(await guard.reserve(req({ reporterId: 'r3' }))).toEqual({ ok: true, appended: true });
    });

    it('gives back exactly one report of the daily count', async () => {
      const r = (userId: string) => req({ reporterId: 'r', userId, maxPerDay: 2 });
      expect(await guard.reserve(r('a'))).toMatchObject({ ok: true });
      expect(await guard.reserve(r('b'))).toMatchObject({ ok: true });
      expect(await guard.reserve(r('c'))).toEqual({ ok: false, refusal: 'daily' });
      await guard.release(r('b'), false);
      expect(await guard.reserve(r('c'))).toMatchObject({ ok: true });
      expect(await guard.reserve(r('d'))).toEqual({ ok: false, refusal: 'daily' });
    });
  });

  describe('ReportGuard.check', () => {
    it('reserves nothing: probing many times does not use up the daily maximum', async () => {
      for (let i = 0; i < 25; i++) expect(await guard.check(req({ reporterId: 'r', userId: `u${i}`, maxPerDay: 2 }))).toEqual({ ok: true });
      expect(await guard.check(req({ reporterId: 'r', userId: 'u0', maxPerDay: 2 }))).toEqual({ ok: true });
      // Probing did not add the reporter to the case, nor open it.
      expect(await guard.reserve(req({ reporterId: 'r', userId: 'u0', maxPerDay: 2 }))).toEqual({ ok: true, appended: false });
      expect(await guard.reserve(req({ reporterId: 'r', userId: 'u1', maxPerDay: 2 }))).toEqual({ ok: true, appended: false });
      expect(await guard.reserve(req({ reporterId: 'r', userId: 'u2', maxPerDay: 2 }))).toEqual({ ok: false, refusal: 'daily' });
    });

    it('reports the refusals a reservation would meet', async () => {
      await guard.reserve(req({ reporterId: 'r1', maxPerDay: 1 }));
      expect(await guard.check(req({ reporterId: 'r1', userId: 'user-2', maxPerDay: 1 }))).toEqual({ ok: false, refusal: 'daily' });
      expect(await guard.check(req({ reporterId: 'r1', maxPerDay: 5 }))).toEqual({ ok: false, refusal: 'duplicate' });
      expect(await guard.check(req({ reporterId: 'r2' }))).toEqual({ ok: true });
    });

    it('counts against the rate limit', async () => {
      const p = req({ rateLimit: 2 });
      expect(await guard.check(p)).toEqual({ ok: true });
      expect(await guard.check(p)).toEqual({ ok: true });
      expect(await guard.check(p)).toEqual({ ok: false, refusal: 'rate' });
      expect(await guard.reserve(p)).toEqual({ ok: false, refusal: 'rate' });
    });
  });

  describe('ReportGuard.withinRate', () => {
    it('is always true without a limit, and counts per key per minute with one', async () => {
      for (let i = 0; i < 10; i++) expect(await guard.withinRate('k', 0, NOON)).toBe(true);
      expect(await guard.withinRate('k', 2, NOON)).toBe(true);
      expect(await guard.withinRate('k', 2, NOON)).toBe(true);
      expect(await guard.withinRate('k', 2, NOON)).toBe(false);
      expect(await guard.withinRate('other', 2, NOON)).toBe(true);
      expect(await guard.withinRate('k', 2, NOON + MINUTE)).toBe(true);
    });
  });

  describe('ReportGuard open-case view', () => {
    it('syncUser with openCaseReporters null clears the open case and its reporters', async () => {
      await guard.reserve(req({ reporterId: 'r1' }));
      await guard.reserve(req({ reporterId: 'r2' }));
      await guard.syncUser('user-1', { banned: false, openCaseReporters: null });
      // r1 is no longer a duplicate, and their report opens a new case.
      expect(await guard.reserve(req({ reporterId: 'r1' }))).toEqual({ ok: true, appended: false });
      expect(await guard.reserve(req({ reporterId: 'r2' }))).toEqual({ ok: true, appended: true });
    });

    it('syncUser with reporters records the open case and adds them', async () => {
      await guard.syncUser('user-1', { banned: false, openCaseReporters: [game('a'), game('b')] });
      expect(await guard.reserve(req({ reporterId: 'a' }))).toEqual({ ok: false, refusal: 'duplicate' });
      expect(await guard.reserve(req({ reporterId: 'b' }))).toEqual({ ok: false, refusal: 'duplicate' });
      expect(await guard.reserve(req({ reporterId: 'c' }))).toEqual({ ok: true, appended: true });
    });

    it('noteOpenCase is additive: reporters already in the set stay there', async () => {
      expect(await guard.reserve(req({ reporterId: 'pending' }))).toEqual({ ok: true, appended: false });
      await guard.noteOpenCase('user-1', [game('stored-1')]);
      await guard.noteOpenCase('user-1', [game('stored-2')]);
      for (const reporterId of ['pending', 'stored-1', 'stored-2']) {
        expect(await guard.reserve(req({ reporterId })), reporterId).toEqual({ ok: false, refusal: 'duplicate' });
      }
      expect(await guard.reserve(req({ reporterId: 'new' }))).toEqual({ ok: true, appended: true });
    });

    it('noteOpenCase with no reporters still marks the case open', async () => {
      await guard.noteOpenCase('user-1', []);
      expect(await guard.reserve(req({ reporterId: 'r1' }))).toEqual({ ok: true, appended: true });
    });

    it('a reporter is a platform and an id: the same id on another platform is someone else', async () => {
      expect(await guard.reserve(req({ reporterId: 'same', maxPerDay: 2 }))).toEqual({ ok: true, appended: false });
      expect(await guard.reserve(req({ reporterId: 'same', maxPerDay: 2 }))).toEqual({ ok: false, refusal: 'duplicate' });
      // Neither the open case's reporters nor the daily count of the game-platform reporter apply.
      expect(await guard.check(req({ reporterId: 'same', reporterPlatform: 'chatplatform', maxPerDay: 1 }))).toEqual({ ok: true });
      expect(await guard.reserve(req({ reporterId: 'same', reporterPlatform: 'chatplatform', maxPerDay: 1 }))).toEqual({ ok: true, appended: true });
      expect(await guard.reserve(req({ reporterId: 'same', reporterPlatform: 'chatplatform', userId: 'user-2', maxPerDay: 1 }))).toEqual({ ok: false, refusal: 'daily' });
      await guard.syncUser('user-1', { banned: false, openCaseReporters: [{ platform: 'chatplatform', id: 'synced' }] });
      expect(await guard.reserve(req({ reporterId: 'synced' }))).toEqual({ ok: true, appended: true });
      expect(await guard.reserve(req({ reporterId: 'synced', reporterPlatform: 'chatplatform' }))).toEqual({ ok: false, refusal: 'duplicate' });
    });

    it('two guards with different prefixes do not share state', async () => {
      const otherPrefix = `${prefix}:nested-other`;
      const other = new ReportGuard(redis, otherPrefix, { batch });
      await guard.syncUser('user-1', { banned: true, openCaseReporters: null });
      expect(await other.reserve(req({ reporterId: 'r1' }))).toEqual({ ok: true, appended: false });
    });
  });
});

describe('ReportGuard.reserve named by a report, one script per slot (Redis Cluster)', () => {
  beforeEach(() => {
    guard = new ReportGuard(redis, prefix, { batch: false });
  });
  const daily = async (reporterId: string) => Number((await redis.get(`${prefix}:daily:{r:gameplatform:${reporterId}}:${Math.floor(NOON / 86_400_000)}`)) ?? 0);

  it('sent again (its answer lost), answers what it did and reserves once', async () => {
    const r = req({ reporterId: 'r1', reportId: 'report-1', maxPerDay: 2 });
    expect(await guard.reserve(r)).toEqual({ ok: true, appended: false });
    expect(await guard.reserve(r)).toEqual({ ok: true, appended: false });
    expect(await daily('r1')).toBe(1);
    expect(await guard.check(req({ reporterId: 'r1' }))).toEqual({ ok: false, refusal: 'duplicate' });
  });

  it('released by its report: what it reserved is given up once, and a sending that arrives later reserves nothing', async () => {
    const r = req({ reporterId: 'r1', reportId: 'report-2' });
    await guard.reserve(r);
    await guard.release(r);
    await guard.release(r);
    expect(await daily('r1')).toBe(0);
    expect(await guard.check(req({ reporterId: 'r1' }))).toEqual({ ok: true });
    await expect(guard.reserve(r)).rejects.toThrow(/released/);
    expect(await daily('r1')).toBe(0);
    // The case it opened is not open any more: the next report opens it again.
    expect(await guard.reserve(req({ reporterId: 'r2', reportId: 'report-3' }))).toEqual({ ok: true, appended: false });
  });

  it('released before its scripts ran (their sending lost): they reserve nothing when they arrive', async () => {
    const r = req({ reporterId: 'r1', reportId: 'report-4' });
    await guard.release(r);
    await expect(guard.reserve(r)).rejects.toThrow(/released/);
    expect(await daily('r1')).toBe(0);
    expect(await guard.check(req({ reporterId: 'r1' }))).toEqual({ ok: true });
  });

  it('refused by one check: what the others reserved is released', async () => {
    await guard.reserve(req({ reporterId: 'r1', reportId: 'report-5' }));
    expect(await guard.reserve(req({ reporterId: 'r1', reportId: 'report-6' }))).toEqual({ ok: false, refusal: 'duplicate' });
    expect(await daily('r1')).toBe(1);
  });
});

describe('ReportGuard.reserveRecorded (standalone Redis)', () => {
  beforeEach(() => {
    guard = new ReportGuard(redis, prefix);
  });

  /** Requests with their instant fixed, as the gateway sends them (again, when confirming). */
  const stampedReq = (over: Partial<GuardRequest> = {}) => req(over) as Stamped;
  const batchOf = () => [stampedReq({ reporterId: 'r1' }), stampedReq({ reporterId: 'r1' }), stampedReq({ reporterId: 'r2' })];
  const daily = async (reporterId: string) => Number((await redis.get(`${prefix}:daily:{r:gameplatform:${reporterId}}:${Math.floor(NOON / 86_400_000)}`)) ?? 0);

  it('reserves for a batch like reserve and keeps its verdicts for the worker, which takes them, then retires them', async () => {
    expect(guard.batches).toBe(true);
    const key = guard.verdictsKey('job-1');
    const outcomes = await guard.reserveRecorded(redis, batchOf(), key);
    expect(outcomes).toEqual([{ ok: true, appended: false }, { ok: false, refusal: 'duplicate' }, { ok: true, appended: true }]);
    // What it reserved is reserved: r2 is now a duplicate for reserve too.
    expect(await guard.reserve(req({ reporterId: 'r2' }))).toEqual({ ok: false, refusal: 'duplicate' });
    expect(await guard.takeVerdicts(key)).toEqual([true, false, true]);
    expect(await guard.takeVerdicts(key), 'a retried job takes them again').toEqual([true, false, true]);
    await guard.retireVerdicts(key);
    expect(await redis.ttl(key)).toBeGreaterThan(0);
  });

  it('sent again with the same verdicts key, answers what it recorded and reserves nothing more', async () => {
    const key = guard.verdictsKey('job-again');
    const first = await guard.reserveRecorded(redis, batchOf(), key);
    expect(await guard.reserveRecorded(redis, batchOf(), key)).toEqual(first);
    expect(await daily('r1')).toBe(1);
    expect(await daily('r2')).toBe(1);
    // Taken by a worker, the answers are still those of the first sending.
    await guard.takeVerdicts(key);
    expect(await guard.reserveRecorded(redis, batchOf(), key)).toEqual(first);
    expect(await daily('r1')).toBe(1);
  });

  it('abandoned before a worker took it: releases what it reserved, and a late job or sending stores and reserves nothing', async () => {
    const key = guard.verdictsKey('job-abandoned');
    await guard.reserveRecorded(redis, batchOf(), key);
    expect(await guard.abandonRecorded(redis, batchOf(), key)).toBeNull();
    expect(await daily('r1')).toBe(0);
    expect(await daily('r2')).toBe(0);
    expect(await guard.takeVerdicts(key)).toBeNull();
    // The same reporters may report the user again, and the first of them opens the case.
    expect(await guard.reserve(req({ reporterId: 'r2' }))).toEqual({ ok: true, appended: false });
    expect(await guard.reserve(req({ reporterId: 'r1' }))).toEqual({ ok: true, appended: true });
    expect(await guard.abandonRecorded(redis, batchOf(), key), 'abandoning twice releases once').toBeNull();
    expect(await daily('r1')).toBe(1);
  });

  it('abandoned before anything was recorded: a sending that arrives later reserves nothing', async () => {
    const key = guard.verdictsKey('job-lost');
    expect(await guard.abandonRecorded(redis, batchOf(), key)).toBeNull();
    await guard.reserveRecorded(redis, batchOf(), key).catch(() => undefined);
    expect(await daily('r1')).toBe(0);
    expect(await guard.takeVerdicts(key)).toBeNull();
  });

  it('abandoned after a worker took it: releases nothing and answers the outcomes', async () => {
    const key = guard.verdictsKey('job-taken');
    const first = await guard.reserveRecorded(redis, batchOf(), key);
    await guard.takeVerdicts(key);
    expect(await guard.abandonRecorded(redis, batchOf(), key)).toEqual(first);
    expect(await daily('r1')).toBe(1);
    expect(await guard.takeVerdicts(key)).toEqual([true, false, true]);
  });

  it('answers null for a job whose reservations recorded nothing', async () => {
    expect(await guard.takeVerdicts(guard.verdictsKey('never-checked'))).toBeNull();
  });

  it('is not offered on a guard that checks one request at a time', () => {
    expect(new ReportGuard(redis, prefix, { batch: false }).batches).toBe(false);
  });
});
