import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntakeJob } from '@rm/contracts';
import { openQueue } from '@rm/runtime';
import { captureItemsOf, captureJobsOf, queueCaptures } from './queue-evidence.js';

let redis: Redis;
beforeAll(() => {
  if (!process.env['REDIS_URL']) throw new Error('REDIS_URL is not set: these tests need a real Redis');
  redis = new Redis(process.env['REDIS_URL'], { maxRetriesPerRequest: null });
});
afterAll(() => redis.quit());

const job: IntakeJob = {
  reports: [
    {
      reportId: 'r1',
      receivedAt: 1,
      userId: 'u1',
      reporter: { id: 'p1', platform: 'gameplatform' },
      answers: [],
      evidence: [
        { url: 'https://example.test/a.png', type: 'url', createEvidence: true },
        { url: 'https://example.test/b.png', type: 'url' },
        { url: 'evidence-upload:abc.def', type: 's3Upload' },
        { url: 'https://bucket.example.test/x', type: 's3Upload' },
      ],
      keyId: 'k',
      requestId: 'req-1',
    },
    { reportId: 'r2', receivedAt: 1, userId: 'u1', reporter: { id: 'p2', platform: 'gameplatform' }, answers: [], evidence: [{ url: 'https://e.test/c', type: 'url', createEvidence: true }], keyId: 'k' },
  ],
};

describe('capture jobs of an intake job', () => {
  it('one per item asked to be kept, of stored reports only, with its index and case', () => {
    const items = captureItemsOf(job, [{ reportId: 'r1', caseId: 'c1', created: true, openedCase: true }]);
    expect(items).toEqual([
      { reportId: 'r1', caseId: 'c1', index: 0, url: 'https://example.test/a.png', type: 'url', requestId: 'req-1' },
      { reportId: 'r1', caseId: 'c1', index: 2, url: 'evidence-upload:abc.def', type: 's3Upload', requestId: 'req-1' },
    ]);
    // One job for the whole intake job, 20 items at most in each.
    expect(captureJobsOf(job, [{ reportId: 'r1', caseId: 'c1', created: true, openedCase: true }, { reportId: 'r2', caseId: 'c1', created: true, openedCase: false }])).toEqual([
      { kind: 'capture', items: [...items, { reportId: 'r2', caseId: 'c1', index: 0, url: 'https://e.test/c', type: 'url' }] },
    ]);
    const many = { reports: Array.from({ length: 25 }, (_, i) => ({ ...job.reports[1]!, reportId: `m${i}` })) };
    expect(captureJobsOf(many, many.reports.map((r) => ({ reportId: r.reportId, caseId: 'c', created: true, openedCase: false }))).map((j) => j.items.length)).toEqual([20, 5]);
  });

  it('queued on the real evidence queue with ids from the report and index: a redelivery adds nothing', async () => {
    const queue = openQueue('evidence', redis, `t${randomUUID().slice(0, 8)}`);
    try {
      const saved = [{ reportId: 'r1', caseId: 'c1', created: true, openedCase: true }];
      expect(await queueCaptures(queue, job, saved)).toBe(2);
      expect(await queueCaptures(queue, job, [{ ...saved[0]!, created: false }])).toBe(2);
      const waiting = await queue.getWaiting();
      expect(waiting.map((j) => j.id)).toEqual(['capture-r1-0']);
      expect(waiting[0]!.data.items).toHaveLength(2);
      expect(await queueCaptures(queue, job, [])).toBe(0);
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });
});
