import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report, System, type Key } from './harness.js';

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
    const job = (await queue.getJob(id))!;
    const data = job.data;
    await job.remove();
    await queue.add('intake', data, { jobId: id });
    await sys.waitFor(async () => (await (await queue.getJob(id))?.isCompleted()) === true);
    expect((await queue.getJob(id))!.returnvalue).toMatchObject({ reportId: id, created: false });
    expect(await count('700')).toBe(1);
  });

  it('a job whose payload cannot parse fails at once, without retries, and is listed by `jobs failed`', async () => {
    const queue = sys.queue('intake');
    await queue.add('intake', { reportId: 'broken' }, { jobId: 'broken-1', attempts: 5 });
    await sys.waitFor(async () => (await (await queue.getJob('broken-1'))?.isFailed()) === true);
    expect((await queue.getJob('broken-1'))!.attemptsMade).toBe(1);
    const listed = await sys.cli(['jobs', 'failed', '--queue', 'intake']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/broken-1\s+1\s+\S+\s+invalid intake payload/);
  });
});
