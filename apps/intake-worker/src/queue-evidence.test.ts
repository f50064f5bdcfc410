import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntakeJob } from '@rm/contracts';
import { openQueue } from '@rm/runtime';
import { captureItemsOf, captureJobsOf, captureQueuer } from './queue-evidence.js';

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
    // 20 items at most in a job.
    const many = { reports: Array.from({ length: 25 }, (_, i) => ({ ...job.reports[1]!, reportId: `m${i}` })) };
    expect(captureJobsOf(captureItemsOf(many, many.reports.map((r) => ({ reportId: r.reportId, caseId: 'c', created: true, openedCase: false })))).map((j) => j.items.length)).toEqual([20, 5]);
  });

  it('queued on the real evidence queue with ids from the report and index: a redelivery adds nothing', async () => {
    const queue = openQueue('evidence', redis, `t${randomUUID().slice(0, 8)}`);
    try {
      const queueCaptures = captureQueuer(queue);
      const saved = [{ reportId: 'r1', caseId: 'c1', created: true, openedCase: true }];
      expect(await queueCaptures(job, saved)).toBe(2);
      expect(await queueCaptures(job, [{ ...saved[0]!, created: false }])).toBe(2);
      const waiting = await queue.getWaiting();
      expect(waiting.map((j) => j.id)).toEqual(['capture-r1-0']);
      expect(waiting[0]!.data.items).toHaveLength(2);
      expect(await queueCaptures(job, [])).toBe(0);
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });

  it('the intake jobs finishing at once share capture jobs (one addBulk), filled across jobs', async () => {
    const queue = openQueue('evidence', redis, `t${randomUUID().slice(0, 8)}`);
    try {
      const queueCaptures = captureQueuer(queue);
      const one = (id: string, n: number): [IntakeJob, { reportId: string; caseId: string; created: boolean; openedCase: boolean }[]] => [
        { reports: [{ ...job.reports[1]!, reportId: id, evidence: Array.from({ length: n }, (_, i) => ({ url: `https://e.test/${i}`, type: 'url' as const, createEvidence: true })) }] },
        [{ reportId: id, caseId: 'c', created: true, openedCase: false }],
      ];
      expect(await Promise.all([queueCaptures(...one('a', 3)), queueCaptures(...one('b', 15)), queueCaptures(...one('c', 4))])).toEqual([3, 15, 4]);
      const waiting = (await queue.getWaiting()).sort((x, y) => x.timestamp - y.timestamp || String(x.id).localeCompare(String(y.id)));
      // Three intake jobs, two capture jobs: 20 items, then the last 2 of `c`.
      expect(waiting.map((j) => [j.id, j.data.items.length])).toEqual([['capture-a-0', 20], ['capture-c-2', 2]]);
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });
});
