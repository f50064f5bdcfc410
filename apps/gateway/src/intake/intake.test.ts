import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queuePrefix, type IntakeReport } from '@rm/contracts';
import { ReportGuard, type GuardRequest } from '@rm/report-guard';
import { createRedis, openQueue, waitForRedis, type Redis } from '@rm/runtime';
import type { Intake } from './intake.js';
import { OneTripIntake } from './one-trip-intake.js';
import { TwoStepIntake } from './two-step-intake.js';

/**
 * The gateway intake's release path on a real Redis (REDIS_URL): when the job cannot be queued,
 * what the submission reserved is released. The fault is real: the queue's meta key holds a
 * string, so BullMQ's add script fails in Redis (WRONGTYPE), after the reservations ran.
 */
let redis: Redis;
let prefix: string;
let queue: Queue;
let guard: ReportGuard;

beforeAll(async () => {
  if (!process.env['REDIS_URL']) throw new Error('REDIS_URL is not set: these tests need a real Redis');
  // As the gateway's queue connection: fails fast rather than queueing commands.
  redis = createRedis({ REDIS_URL: process.env['REDIS_URL'] }, { failFast: true });
  await waitForRedis(redis);
});
afterAll(() => redis.quit());

afterEach(() => queue.close());

const NOW = Date.UTC(2030, 0, 15, 12, 0, 30);
const request = (reporterId: string, userId = 'u1', maxPerDay = 1): GuardRequest => ({
  keyId: 'key-1',
  rateLimit: 0,
  reporterId,
  reporterPlatform: 'gameplatform',
  userId,
  maxPerDay,
  now: NOW,
});
const report = (reporterId: string): IntakeReport => ({
  reportId: randomUUID(),
  receivedAt: NOW,
  userId: 'u1',
  reporter: { id: reporterId, platform: 'gameplatform' },
  answers: [],
  evidence: [],
  keyId: 'key-1',
});

describe.each([
  { path: 'one round trip (standalone Redis)', make: () => new OneTripIntake(queue, redis, guard) },
  { path: 'two steps (as on a Redis Cluster)', make: () => new TwoStepIntake(queue, redis, new ReportGuard(redis, prefix, { batch: false })) },
])('gateway intake, $path', ({ make }) => {
  let intake: Intake;
  const metaKey = () => `${queuePrefix(prefix, 'intake')}:intake:meta`;

  beforeEach(() => {
    prefix = `t${randomUUID().slice(0, 8)}`;
    queue = openQueue('intake', redis, prefix);
    guard = new ReportGuard(redis, prefix);
    intake = make();
  });

  // The refusal comes once the add has failed for the whole CONFIRM_WINDOW_MS (3 s), more than half
  // of vitest's default timeout.
  it('a submission whose job cannot be queued is answered UNAVAILABLE after it released what it reserved', { timeout: 15_000 }, async () => {
    // With its script not cached, the release costs a second round trip (NOSCRIPT, then EVAL),
    // while the check's is: the answer must still wait for the release, or a check or retry at once
    // is refused by the submission's own reservation.
    await redis.script('FLUSH');
    expect(await guard.check(request('r1'))).toEqual({ ok: true });
    await redis.set(metaKey(), 'not a hash');
    await expect(intake.accept(request('r1'), report('r1'))).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    // Released: neither "already reported" nor the day's only report is used up.
    expect(await guard.check(request('r1'))).toEqual({ ok: true });
    expect(await guard.check(request('r1', 'u2'))).toEqual({ ok: true });
    expect(await queue.getJobCounts('wait')).toEqual({ wait: 0 });

    await redis.del(metaKey());
    const accepted = report('r1');
    expect(await intake.accept(request('r1'), accepted)).toEqual({ ok: true, appended: false });
    const [job] = await queue.getJobs(['wait']);
    expect(job!.data.reports.map((r: IntakeReport) => r.reportId)).toEqual([accepted.reportId]);
    expect(await guard.check(request('r1'))).toEqual({ ok: false, refusal: 'daily' });
  });

  it('an add that fails for a moment is sent again and confirmed, not released', async () => {
    await redis.set(metaKey(), 'not a hash');
    setTimeout(() => void redis.del(metaKey()), 600);
    const accepted = report('r1');
    expect(await intake.accept(request('r1', 'u1', 2), accepted)).toEqual({ ok: true, appended: false });
    const jobs = await queue.getJobs(['wait']);
    expect(jobs.flatMap((j) => j.data.reports.map((r: IntakeReport) => r.reportId))).toEqual([accepted.reportId]);
    // Reserved once: one report of the day's two is used, and the reporter has reported the user.
    expect(await guard.check(request('r1', 'u2', 2))).toEqual({ ok: true });
    expect(await guard.check(request('r1', 'u1', 2))).toEqual({ ok: false, refusal: 'duplicate' });
  });
});
