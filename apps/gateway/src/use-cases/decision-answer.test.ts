import { randomUUID } from 'node:crypto';
import { Worker, type Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jobIdFor, queuePrefix, replyChannel, type DecisionJob, type OneDecision } from '@rm/contracts';
import { createConsumer, createLogger, createRedis, openQueue, ReplyInbox, sendReply, waitForRedis, type Handler, type Redis } from '@rm/runtime';
import { addAndAwait, DecisionFailedError, DecisionTimeoutError } from './decision-answer.js';
import { DecisionBatches } from './decision-batches.js';

/**
 * The hand-back of decision answers on a real Redis (REDIS_URL): the runtime's consumer publishes
 * each answer to the gateway's reply inbox; a plain BullMQ worker (one of an earlier version)
 * does not, and its answer is read from the job at the timeout. Then the gateway's batches of
 * decisions, through the same consumer, as the moderation worker takes them.
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
  // A completed job is deleted at once, so its answer can only come from the reply, not the job.
  queue = openQueue('decisions', redis, prefix, { defaultJobOptions: { removeOnComplete: true } });
  inboxConnection = redis.duplicate({ connectionName: prefix });
  await waitForRedis(inboxConnection);
  inbox = new ReplyInbox(inboxConnection, prefix, () => undefined);
  await inbox.ready();
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await inbox.close();
  await queue.close();
});

const claim = (n: number): DecisionJob => ({ action: 'claim', decisionId: `d-${n}`, reportId: `r-${n}`, moderatorId: `m-${n}` });

/** The runtime's consumer of the decisions queue, running until the test's end. */
function consumer(handler: Handler<'decisions'>, concurrency = 4): void {
  const worker = createConsumer('decisions', handler, { connection: redis.duplicate(), keyPrefix: prefix, concurrency, logger, lockMs: 5_000 });
  void worker.run();
  closers.push(() => worker.close());
}

/** A consumer of one decision per job (the hand-back's tests). */
const single = (handler: (job: DecisionJob) => Promise<unknown>) => consumer(async (job) => handler(job as DecisionJob));

describe('addAndAwait', () => {
  it("answers each job's own return value, published to the inbox", async () => {
    single(async (job) => ({ report: job.reportId }));
    const answers = await Promise.all([1, 2, 3].map((n) => addAndAwait(queue, inbox, 'decision', claim(n), `job-${n}`, 5_000)));
    expect(answers).toEqual([{ report: 'r-1' }, { report: 'r-2' }, { report: 'r-3' }]);
  });

  it('a job that failed for good answers its reason', async () => {
    single(async () => {
      throw new Error('the store is gone');
    });
    await expect(addAndAwait(queue, inbox, 'decision', claim(1), 'job-f', 5_000)).rejects.toThrow(new DecisionFailedError('the store is gone'));
  });

  it('a job no worker takes times out, and stays queued', async () => {
    await expect(addAndAwait(queue, inbox, 'decision', claim(1), 'job-t', 300)).rejects.toBeInstanceOf(DecisionTimeoutError);
    expect(await (await queue.getJob('job-t'))?.getState()).toBe('waiting');
  });

  it('a worker that sends no reply (an earlier version) is answered at the timeout from the job itself', async () => {
    const w = new Worker(queue.name, async (job) => ({ report: (job.data as DecisionJob).reportId }), { connection: redis.duplicate(), prefix: queuePrefix(prefix, 'decisions') });
    const keeping = openQueue('decisions', redis, prefix);
    closers.push(() => w.close(), () => keeping.close());
    expect(await addAndAwait(keeping, inbox, 'decision', claim(7), 'job-m', 1_000)).toEqual({ report: 'r-7' });
  });

  it("a reply published while the inbox's connection is down is answered from the job at the timeout; after the reconnect replies are heard again", async () => {
    // The inbox's connection, found by its name in the server's client list, killed for real.
    const clients = (await redis.client('LIST')) as string;
    const inboxClientId = /^id=(\d+)/.exec(clients.split('\n').find((line) => line.includes(` name=${prefix} `)) ?? '')?.[1];
    expect(inboxClientId).toBeDefined();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    single(async (job) => {
      if (job.reportId === 'r-9') await held;
      return { report: job.reportId };
    });
    const keeping = openQueue('decisions', redis, prefix);
    closers.push(() => keeping.close());
    const answer = addAndAwait(keeping, inbox, 'decision', claim(9), 'job-k', 1_500);
    expect(await redis.client('KILL', 'ID', inboxClientId!)).toBe(1);
    release();
    expect(await answer).toEqual({ report: 'r-9' });
    // Subscribed again: the next answer comes from the reply (the queue deletes completed jobs).
    expect(await addAndAwait(queue, inbox, 'decision', claim(10), 'job-after', 5_000)).toEqual({ report: 'r-10' });
  });
});

/** A consumer that records each job's decisions and answers each by `answer`. */
function batchConsumer(answer: (d: OneDecision) => unknown): OneDecision[][] {
  const jobs: OneDecision[][] = [];
  consumer(async (job) => {
    const decisions = 'decisions' in job ? job.decisions : [job];
    jobs.push(decisions);
    return decisions.map(answer);
  });
  return jobs;
}

describe('DecisionBatches', () => {
  it('sends the decisions of one turn as one job and answers each its own', async () => {
    const jobs = batchConsumer((d) => ({ report: 'reportId' in d ? d.reportId : null }));
    const batches = new DecisionBatches(queue, inbox, 5_000);
    const answers = await Promise.all([1, 2, 3].map((n) => batches.run(claim(n))));
    expect(answers).toEqual([{ report: 'r-1' }, { report: 'r-2' }, { report: 'r-3' }]);
    expect(jobs).toEqual([[claim(1), claim(2), claim(3)]]);
    // A later turn's decision is a job of its own.
    expect(await batches.run(claim(4))).toEqual({ report: 'r-4' });
    expect(jobs).toHaveLength(2);
  });

  it("a decision answered on its own is not held until its job's answer", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    consumer(async (job, raw) => {
      const decisions = 'decisions' in job ? job.decisions : [job];
      // The first is decided at once and answered on its own, as the moderation worker does.
      await sendReply(redis, prefix, raw.data, { ok: true, jobId: jobIdFor.decisions(decisions[0]!.decisionId), value: 'first, early' });
      await held;
      return decisions.map((d) => `${d.decisionId}, with the job`);
    }, 1);
    const batches = new DecisionBatches(queue, inbox, 5_000);
    const [first, second] = [1, 2].map((n) => batches.run(claim(n)));
    expect(await first).toBe('first, early');
    release();
    expect(await second).toBe('d-2, with the job');
  });

  it('a job that failed for good answers its reason to every decision in it', async () => {
    batchConsumer(() => {
      throw new Error('the store is gone');
    });
    const batches = new DecisionBatches(queue, inbox, 5_000);
    const answers = await Promise.allSettled([1, 2].map((n) => batches.run(claim(n))));
    expect(answers).toEqual([1, 2].map(() => ({ status: 'rejected', reason: new DecisionFailedError('the store is gone') })));
  });

  it('an answer that is not one per decision is an error for each, not a wrong answer', async () => {
    consumer(async () => ({ report: 'one' }), 1);
    const batches = new DecisionBatches(queue, inbox, 5_000);
    const answers = await Promise.allSettled([1, 2].map((n) => batches.run(claim(n))));
    expect(answers.map((a) => a.status === 'rejected' && String(a.reason))).toEqual([1, 2].map(() => expect.stringContaining('answered {"report":"one"} for 2 decisions')));
  });
});

describe('sendReply', () => {
  it("publishes to the channel of the inbox the data names; data naming none, or a malformed one, publishes nothing", async () => {
    const listener = redis.duplicate();
    const heard: [string, string][] = [];
    listener.on('pmessage', (_pattern: string, channel: string, message: string) => heard.push([channel, message]));
    await listener.psubscribe(`${prefix}:*`);
    const reply = { ok: true as const, jobId: 'j', value: 1 };
    await sendReply(redis, prefix, {}, reply);
    await sendReply(redis, prefix, { replyTo: 'other:key' }, reply);
    await sendReply(redis, prefix, { replyTo: 'some-gateway' }, reply);
    // Published in order on one connection: once the last is heard, the others would have been.
    await expect.poll(() => heard.length).toBeGreaterThan(0);
    expect(heard).toEqual([[replyChannel(prefix, 'some-gateway'), JSON.stringify(reply)]]);
    listener.disconnect();
  });
});
