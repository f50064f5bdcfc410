import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis } from '@rm/runtime';
import { redisUrl, report, System, type Key } from './harness.js';

let sys: System;
let admin: Key;

beforeAll(async () => {
  sys = await System.start({ apps: ['gateway', 'intake'] });
  admin = await sys.createKey(['--admin']);
  await sys.addUser('700');
});
afterAll(() => sys?.stop());

const count = async (userId: string) => (await sys.get(`/v1/reports/${userId}`, admin.auth)).body.count as number;

describe('intake worker', () => {
  it('a redelivered intake job stores the report once', async () => {
    const res = await sys.post('/v1/reports/new', admin.auth, report('700', 'i-1'));
    const id = res.body.id as string;
    await sys.waitFor(async () => (await count('700')) === 1);
    const queue = sys.queue('intake');
    // Stored is not finished: the job still notes the open case and enqueues its notification.
    await sys.waitFor(async () => (await (await queue.getJob(id))?.isCompleted()) === true);
    // A lone submit is a job of one report, named by it.
    const job = (await queue.getJob(id))!;
    const { verdictsKey, ...data } = job.data;
    expect(data.reports.map((r: { reportId: string }) => r.reportId)).toEqual([id]);
    const redeliver = async (payload: object) => {
      await (await queue.getJob(id))!.remove();
      await queue.add('intake', payload, { jobId: id });
      await sys.waitFor(async () => (await (await queue.getJob(id))?.isCompleted()) === true);
      return (await queue.getJob(id))!.returnvalue;
    };
    // Sent with its reservations: their verdicts outlive the store a while, and the report is known.
    expect(verdictsKey).toEqual(expect.any(String));
    const storedAgain = [expect.objectContaining({ reportId: id, created: false })];
    expect(await redeliver({ ...data, verdictsKey })).toEqual(storedAgain);
    // As queued by an older gateway, which named the key `verdicts`.
    expect(await redeliver({ ...data, verdicts: verdictsKey })).toEqual(storedAgain);
    // As a job of reserved reports (a Redis Cluster's): the store knows the report id.
    expect(await redeliver(data)).toEqual([expect.objectContaining({ reportId: id, created: false })]);
    expect(await count('700')).toBe(1);
  });

  it('a report refused in the same turn as others rides in their job, and only the reserved are stored', async () => {
    await sys.addUser('703');
    // One reporter three times about one user, in one gateway turn (Redis held, as below).
    const pauser = createRedis({ REDIS_URL: redisUrl() });
    await pauser.client('PAUSE', 300, 'ALL');
    const answers = await Promise.all([0, 1, 2].map(() => sys.post('/v1/reports/new', admin.auth, report('703', 'same-reporter'))));
    pauser.disconnect();
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400]);
    const stored = answers.find((a) => a.status === 200)!.body.id as string;
    type Held = { userId: string; reportId: string };
    const about703 = (jobs: Job[]) => jobs.filter((j) => j.data.reports.some((r: Held) => r.userId === '703'));
    let jobs: Job[] = [];
    await sys.waitFor(async () => {
      jobs = about703(await sys.queue('intake').getJobs(['completed']));
      return jobs.flatMap((j) => j.data.reports).filter((r: Held) => r.userId === '703').length === 3;
    }, 15_000, 'the jobs holding the three reports to complete');
    expect(jobs.flatMap((j) => j.returnvalue.map((s: { reportId: string }) => s.reportId))).toEqual([stored]);
    const list = await sys.get('/v1/reports/703', admin.auth);
    expect(list.body.reports.map((r: { repid: string }) => r.repid)).toEqual([stored]);
  });

  it('submits in flight together share one intake job, and every report of it is stored', async () => {
    await sys.addUser('701');
    await sys.addUser('702');
    const bodies = Array.from({ length: 30 }, (_, i) => report(i % 2 === 0 ? '701' : '702', `together-${i}`));
    // Redis held for a moment, as a loaded server is: the submits' checks queue up and are answered
    // together, so the gateway goes on with them in one turn (sent one by one from here, they could
    // otherwise each get a turn of their own).
    const pauser = createRedis({ REDIS_URL: redisUrl() });
    await pauser.client('PAUSE', 500, 'ALL');
    const answers = await Promise.all(bodies.map((b) => sys.post('/v1/reports/new', admin.auth, b)));
    pauser.disconnect();
    expect(answers.map((a) => a.status)).toEqual(bodies.map(() => 200));
    await sys.waitFor(async () => (await count('701')) === 15 && (await count('702')) === 15, 15_000, 'all 30 reports stored');
    const queue = sys.queue('intake');
    const ids = answers.map((a) => a.body.id as string);
    // Stored is not finished: a job still notes the open case and enqueues its notification.
    const reportIdsOf = (jobs: Job[]): string[] => jobs.flatMap((j) => j.data.reports.map((r: { reportId: string }) => r.reportId));
    let jobs: Job[] = [];
    await sys.waitFor(
      async () => {
        jobs = (await queue.getJobs(['completed'])).filter((j) => reportIdsOf([j]).some((id) => ids.includes(id)));
        return reportIdsOf(jobs).length >= ids.length;
      },
      15_000,
      'the jobs holding the 30 reports to complete',
    );
    // Each report sits in exactly one job, and some job holds more than one (they arrived at once).
    const held = reportIdsOf(jobs);
    expect(held.sort()).toEqual([...ids].sort());
    expect(jobs.length).toBeLessThan(ids.length);
  });

  it('a job whose payload cannot parse fails at once, without retries, and is listed by `jobs failed`', async () => {
    const queue = sys.queue('intake');
    await queue.add('intake', { reportId: 'broken' }, { jobId: 'broken-1', attempts: 5 });
    await sys.waitFor(async () => (await (await queue.getJob('broken-1'))?.isFailed()) === true);
    expect((await queue.getJob('broken-1'))!.attemptsMade).toBe(1);
    const listed = await sys.cli(['jobs', 'failed', '--queue', 'intake']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/broken-1\s+1\s+\S+\s+invalid intake payload/);
    // Without --queue, every queue that holds any: a failed decision job is listed beside it.
    // (No moderation worker runs here: one of the test's own fails it.)
    const decisions = sys.queue('decisions');
    const failing = new Worker(decisions.name, async () => { throw new UnrecoverableError('broken on purpose'); }, { connection: decisions.opts.connection, prefix: decisions.opts.prefix });
    try {
      await decisions.add('decision', { broken: true }, { jobId: 'broken-decision-1', attempts: 1 });
      await sys.waitFor(async () => (await (await decisions.getJob('broken-decision-1'))?.isFailed()) === true, 15_000, 'the decision job failed');
    } finally {
      await failing.close();
    }
    const every = await sys.cli(['jobs', 'failed']);
    expect(every.code).toBe(0);
    expect(every.stdout).toMatch(/failed job\(s\) in intake/);
    expect(every.stdout).toMatch(/failed job\(s\) in decisions/);
    expect(every.stdout).not.toMatch(/0 failed job\(s\)/);
    for (const limit of ['abc', '0', '-1']) expect((await sys.cli(['jobs', 'failed', '--limit', limit])).code, limit).toBe(1);
  });
});
