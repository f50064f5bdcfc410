import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaseSyncMarks } from './case-sync-marks.js';
import { createRedis, type Redis } from '@rm/runtime';

// A real Redis (REDIS_URL, which `npm test` provides); each test under a prefix of its own.
let redis: Redis;
beforeAll(() => {
  if (!process.env.REDIS_URL) throw new Error('REDIS_URL is not set: these tests need a real Redis');
  redis = createRedis({ REDIS_URL: process.env.REDIS_URL });
});
afterAll(() => redis?.quit());

let prefix = '';
const marksUnderNewPrefix = () => new CaseSyncMarks(redis, (prefix = `marks-test-${randomUUID()}`));

describe('CaseSyncMarks', () => {
  it('the first report of a case adds its sync; later ones are covered by it until the sync clears the mark', async () => {
    const marks = marksUnderNewPrefix();
    expect(await marks.claim('case-1', 'report-a')).toBe(true);
    expect(await marks.claim('case-1', 'report-b')).toBe(false);
    await marks.clear('case-1');
    expect(await marks.claim('case-1', 'report-c')).toBe(true);
  });

  it('a retry of the job that set the mark adds it again', async () => {
    const marks = marksUnderNewPrefix();
    expect(await marks.claim('case-1', 'report-a')).toBe(true);
    expect(await marks.claim('case-1', 'report-a')).toBe(true);
  });

  it('claims of one turn are answered each for its own case, in order', async () => {
    const marks = marksUnderNewPrefix();
    expect(await marks.claim('case-2', 'report-x')).toBe(true);
    const answers = await Promise.all([
      marks.claim('case-1', 'report-a'),
      marks.claim('case-2', 'report-b'),
      marks.claim('case-1', 'report-c'),
      marks.claim('case-3', 'report-d'),
    ]);
    expect(answers).toEqual([true, false, false, true]);
  });

  it('a mark expires on its own, so a lost one holds back syncs for a minute at most', async () => {
    const marks = marksUnderNewPrefix();
    await marks.claim('case-1', 'report-a');
    const [key, ...others] = await redis.keys(`${prefix}:*`);
    expect(others).toEqual([]);
    const ttl = await redis.pttl(key!);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });
});
