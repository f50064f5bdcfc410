import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jobIdFor, type DecisionJob, type OneDecision } from '@rm/contracts';
import { createConsumer, createLogger, createRedis, openQueue, ReplyInbox, sendReply, waitForRedis, type Redis } from '@rm/runtime';
import { DecisionFailedError } from './decision-answer.js';
import { DecisionBatches } from './decision-batches.js';

/** Decisions through the runtime's consumer on a real Redis (REDIS_URL), as the moderation worker takes them. */
let redis: Redis;
let prefix: string;
let queue: Queue;
let inbox: ReplyInbox;
const closers: (() => Promise<unknown>)[] = [];
const logger = createLogger('decision-batches-test', 'silent');

beforeAll(async () => {
  if (!process.env['REDIS_URL']) throw new Error('REDIS_URL is not set: these tests need a real Redis');
  redis = createRedis({ REDIS_URL: process.env['REDIS_URL'] });
  await waitForRedis(redis);
});
afterAll(() => redis.quit());

beforeEach(async () => {
  prefix = `decision-batches-test-${randomUUID()}`;
  queue = openQueue('decisions', redis, prefix);
  inbox = new ReplyInbox(redis.duplicate(), prefix, () => undefined);
  await inbox.ready();
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await inbox.close();
  await queue.close();
});

const claim = (n: number): DecisionJob => ({ action: 'claim', decisionId: `d-${n}`, reportId: `r-${n}`, moderatorId: `m-${n}` });

/** A consumer of the decisions queue that records each job's decisions and answers each by `answer`. */
function consumer(answer: (d: OneDecision) => unknown): OneDecision[][] {
  const jobs: OneDecision[][] = [];
  const worker = createConsumer(
    'decisions',
    async (job) => {
      const decisions = 'decisions' in job ? job.decisions : [job];
      jobs.push(decisions);
      return decisions.map(answer);
    },
    { connection: redis.duplicate(), keyPrefix: prefix, concurrency: 4, logger, lockMs: 5_000 },
  );
  void worker.run();
  closers.push(() => worker.close());
  return jobs;
}

describe('DecisionBatches', () => {
  it('sends the decisions of one turn as one job and answers each its own', async () => {
    const jobs = consumer((d) => ({ report: 'reportId' in d ? d.reportId : null }));
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
    const worker = createConsumer(
      'decisions',
      async (job, raw) => {
        const decisions = 'decisions' in job ? job.decisions : [job];
        // The first is decided at once and answered on its own, as the moderation worker does.
        await sendReply(redis, prefix, raw.data, { ok: true, jobId: jobIdFor.decisions(decisions[0]!.decisionId), value: 'first, early' });
        await held;
        return decisions.map((d) => `${d.decisionId}, with the job`);
      },
      { connection: redis.duplicate(), keyPrefix: prefix, concurrency: 1, logger, lockMs: 5_000 },
    );
    void worker.run();
    closers.push(() => worker.close());
    const batches = new DecisionBatches(queue, inbox, 5_000);
    const [first, second] = [1, 2].map((n) => batches.run(claim(n)));
    expect(await first).toBe('first, early');
    release();
    expect(await second).toBe('d-2, with the job');
  });

  it('a job that failed for good answers its reason to every decision in it', async () => {
    consumer(() => {
      throw new Error('the store is gone');
    });
    const batches = new DecisionBatches(queue, inbox, 5_000);
    const answers = await Promise.allSettled([1, 2].map((n) => batches.run(claim(n))));
    expect(answers).toEqual([1, 2].map(() => ({ status: 'rejected', reason: new DecisionFailedError('the store is gone') })));
  });

  it('an answer that is not one per decision is an error for each, not a wrong answer', async () => {
    const worker = createConsumer('decisions', async () => ({ report: 'one' }), { connection: redis.duplicate(), keyPrefix: prefix, concurrency: 1, logger, lockMs: 5_000 });
    void worker.run();
    closers.push(() => worker.close());
    const batches = new DecisionBatches(queue, inbox, 5_000);
    const answers = await Promise.allSettled([1, 2].map((n) => batches.run(claim(n))));
    expect(answers.map((a) => a.status === 'rejected' && String(a.reason))).toEqual([1, 2].map(() => expect.stringContaining('answered {"report":"one"} for 2 decisions')));
  });
});
