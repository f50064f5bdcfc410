import { randomUUID } from 'node:crypto';
import { Worker, type Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queuePrefix, REPLY_TTL_MS, replyKey, type DecisionJob } from '@rm/contracts';
import { createConsumer, createLogger, createRedis, openQueue, ReplyInbox, sendReply, waitForRedis, type Redis } from '@rm/runtime';
import { addAndAwait, DecisionFailedError, DecisionTimeoutError } from './decision-answer.js';

/**
 * The hand-back of decision answers on a real Redis (REDIS_URL): the runtime's consumer pushes
 * each answer to the gateway's reply inbox; a plain BullMQ worker (one of an earlier version)
 * does not, and its answer is read from the job at the timeout.
 */
let redis: Redis;
let prefix: string;
let queue: Queue;
let inbox: ReplyInbox;
let inboxConnection: Redis;
const closers: (() => Promise<unknown>)[] = [];
const logger = createLogger('decision-answer-test', 'silent');

beforeAll(async () => {
  if (!process.env['REDIS_URL']) throw new Error('REDIS_URL is not set: these tests need a real Redis');
  redis = createRedis({ REDIS_URL: process.env['REDIS_URL'] });
  await waitForRedis(redis);
});
afterAll(() => redis.quit());

beforeEach(async () => {
  prefix = `decision-answer-test-${randomUUID()}`;
  // A completed job is deleted at once, so its answer can only come from the push, not the job.
  queue = openQueue('decisions', redis, prefix, { defaultJobOptions: { removeOnComplete: true } });
  inboxConnection = redis.duplicate({ connectionName: prefix });
  await waitForRedis(inboxConnection);
  inbox = new ReplyInbox(inboxConnection, prefix, () => undefined);
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await inbox.close();
  await queue.close();
});

const claim = (n: number): DecisionJob => ({ action: 'claim', decisionId: `d-${n}`, reportId: `r-${n}`, moderatorId: `m-${n}` });

function consumer(handler: (job: DecisionJob) => Promise<unknown>): void {
  const worker = createConsumer('decisions', async (job) => handler(job as DecisionJob), { connection: redis.duplicate(), keyPrefix: prefix, concurrency: 4, logger, lockMs: 5_000 });
  void worker.run();
  closers.push(() => worker.close());
}

describe('addAndAwait', () => {
  it("answers each job's own return value, pushed to the inbox", async () => {
    consumer(async (job) => ({ report: job.reportId }));
    const answers = await Promise.all([1, 2, 3].map((n) => addAndAwait(queue, inbox, 'decision', claim(n), `job-${n}`, 5_000)));
    expect(answers).toEqual([{ report: 'r-1' }, { report: 'r-2' }, { report: 'r-3' }]);
  });

  it('a job that failed for good answers its reason', async () => {
    consumer(async () => {
      throw new Error('the store is gone');
    });
    await expect(addAndAwait(queue, inbox, 'decision', claim(1), 'job-f', 5_000)).rejects.toThrow(new DecisionFailedError('the store is gone'));
  });

  it('a job no worker takes times out, and stays queued', async () => {
    await expect(addAndAwait(queue, inbox, 'decision', claim(1), 'job-t', 300)).rejects.toBeInstanceOf(DecisionTimeoutError);
    expect(await (await queue.getJob('job-t'))?.getState()).toBe('waiting');
  });

  it('a worker that pushes no reply (an earlier version) is answered at the timeout from the job itself', async () => {
    const w = new Worker(queue.name, async (job) => ({ report: (job.data as DecisionJob).reportId }), { connection: redis.duplicate(), prefix: queuePrefix(prefix, 'decisions') });
    const keeping = openQueue('decisions', redis, prefix);
    closers.push(() => w.close(), () => keeping.close());
    expect(await addAndAwait(keeping, inbox, 'decision', claim(7), 'job-m', 1_000)).toEqual({ report: 'r-7' });
  });

  it("replies pushed while the inbox's connection was killed wait in Redis and arrive after it reconnects", async () => {
    // The inbox's connection is blocked in BLPOP: found by its name in the server's client list.
    const clients = (await redis.client('LIST')) as string;
    const inboxClient = clients.split('\n').find((line) => line.includes(` name=${prefix} `));
    const inboxClientId = /^id=(\d+)/.exec(inboxClient ?? '')?.[1];
    expect(inboxClientId).toBeDefined();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    consumer(async (job) => {
      await held;
      return { report: job.reportId };
    });
    const answer = addAndAwait(queue, inbox, 'decision', claim(9), 'job-k', 4_000);
    // Kill the inbox's connection for real (its BLPOP is waiting), then let the job answer.
    expect(await redis.client('KILL', 'ID', inboxClientId!)).toBe(1);
    release();
    expect(await answer).toEqual({ report: 'r-9' });
  });
});

describe('sendReply', () => {
  it("pushes to the inbox the data names, with the list's expiry; data naming none, or a malformed one, pushes nothing", async () => {
    const reply = { ok: true as const, jobId: 'j', value: 1 };
    await sendReply(redis, prefix, { replyTo: 'gone-gateway' }, reply);
    const key = replyKey(prefix, 'gone-gateway');
    expect(await redis.lrange(key, 0, -1)).toEqual([JSON.stringify(reply)]);
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(REPLY_TTL_MS);

    await sendReply(redis, prefix, {}, reply);
    await sendReply(redis, prefix, { replyTo: 'other:key' }, reply);
    expect(await redis.keys(`${prefix}:*`)).toEqual([key]);
  });
});
