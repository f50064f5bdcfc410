import { randomUUID } from 'node:crypto';
import { QueueEvents, Worker, type Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queuePrefix } from '@rm/contracts';
import { createRedis, openQueue, waitForRedis, type Redis } from '@rm/runtime';
import { addAndAwait, DecisionFailedError, DecisionTimeoutError } from './decision-answer.js';

/** The hand-back of decision answers on a real Redis (REDIS_URL), with a real BullMQ worker. */
let redis: Redis;
let prefix: string;
let queue: Queue;
let events: QueueEvents;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  if (!process.env['REDIS_URL']) throw new Error('REDIS_URL is not set: these tests need a real Redis');
  redis = createRedis({ REDIS_URL: process.env['REDIS_URL'] });
  await waitForRedis(redis);
});
afterAll(() => redis.quit());

beforeEach(async () => {
  prefix = `decision-answer-test-${randomUUID()}`;
  queue = openQueue('decisions', redis, prefix);
  events = new QueueEvents(queue.name, { connection: redis.duplicate(), prefix: queuePrefix(prefix, 'decisions') });
  await events.waitUntilReady();
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await events.close();
  await queue.close();
});

function worker(processor: (data: { n: number }) => Promise<unknown>): void {
  const w = new Worker(queue.name, (job) => processor(job.data as { n: number }), { connection: redis.duplicate(), prefix: queuePrefix(prefix, 'decisions') });
  closers.push(() => w.close());
}

describe('addAndAwait', () => {
  it("answers each job's own return value", async () => {
    worker(async ({ n }) => ({ doubled: n * 2 }));
    const answers = await Promise.all([1, 2, 3].map((n) => addAndAwait(queue, events, 'decision', { n }, `job-${n}`, 5_000)));
    expect(answers).toEqual([{ doubled: 2 }, { doubled: 4 }, { doubled: 6 }]);
  });

  it('a job that failed for good answers its reason', async () => {
    worker(async () => {
      throw new Error('the store is gone');
    });
    await expect(addAndAwait(queue, events, 'decision', { n: 1 }, 'job-f', 5_000)).rejects.toThrow(new DecisionFailedError('the store is gone'));
  });

  it('a job no worker takes times out, and stays queued', async () => {
    await expect(addAndAwait(queue, events, 'decision', { n: 1 }, 'job-t', 300)).rejects.toBeInstanceOf(DecisionTimeoutError);
    expect(await (await queue.getJob('job-t'))?.getState()).toBe('waiting');
  });

  it('a job whose end was never read from the events (QueueEvents closed) is answered at the timeout from the job itself', async () => {
    await events.close();
    worker(async ({ n }) => ({ n }));
    expect(await addAndAwait(queue, events, 'decision', { n: 7 }, 'job-m', 1_000)).toEqual({ n: 7 });
  });
});
