import type { Queue } from 'bullmq';
import { QUEUES, type IntakeJob, type QueueKey } from '@rm/contracts';
import { createRedis, openQueue, uuidv7, type Redis } from '@rm/runtime';
import { startProcess } from './processes.js';

async function emptied(queue: Queue): Promise<void> {
  for (;;) {
    const counts = await queue.getJobCounts('wait', 'active', 'delayed', 'prioritized');
    if (Object.values(counts).every((n) => n === 0)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** One queue of the catalog under `prefix` (a QUEUE_PREFIX), on a connection of its own. */
function benchQueue(env: NodeJS.ProcessEnv, prefix: string, key: QueueKey): { redis: Redis; queue: Queue } {
  const redis = createRedis({ REDIS_URL: env['REDIS_URL']! });
  return { redis, queue: openQueue(key, redis, prefix) };
}

/** Removes a queue and every job in it. */
export async function dropQueue(env: NodeJS.ProcessEnv, prefix: string, key: QueueKey): Promise<void> {
  const { redis, queue } = benchQueue(env, prefix, key);
  await queue.obliterate({ force: true });
  await queue.close();
  redis.disconnect();
}

/** Resolves once the intake queue under `prefix` has nothing waiting or running. */
export async function untilDrained(env: NodeJS.ProcessEnv, prefix: string): Promise<void> {
  const { redis, queue } = benchQueue(env, prefix, 'intake');
  await emptied(queue);
  await queue.close();
  redis.disconnect();
}

/**
 * Intake drain rate: fills a fresh queue prefix with `jobs` intake jobs while no worker runs, then
 * starts one intake worker at the given concurrency and times it until the queue is empty.
 */
export async function drainRate(env: NodeJS.ProcessEnv, concurrency: number, jobs: number): Promise<{ concurrency: number; jobs: number; seconds: number; jobsPerSec: number }> {
  const prefix = `drain${concurrency}`;
  const { redis, queue } = benchQueue(env, prefix, 'intake');
  const userId = String(800_000_000 + concurrency);
  for (let i = 0; i < jobs; i += 1000) {
    const batch = Array.from({ length: Math.min(1000, jobs - i) }, (_, k) => {
      const reportId = uuidv7();
      const data: IntakeJob = {
        reportId,
        receivedAt: Date.now(),
        userId,
        reporter: { id: `drain-${i + k}`, platform: 'gameplatform' },
        answers: [{ questionId: 'q1', answer: 'griefing' }],
        evidence: [{ url: 'https://clips.example/d', type: 'url' }],
        keyId: 'bench',
      };
      return { name: QUEUES.intake.name, data, opts: { jobId: reportId, removeOnComplete: true, attempts: 5 } };
    });
    await queue.addBulk(batch);
  }
  const worker = startProcess(`intake-${concurrency}`, 'apps/intake-worker/dist/main.js', { ...env, QUEUE_PREFIX: prefix, INTAKE_CONCURRENCY: String(concurrency) });
  while ((await queue.getWorkers()).length === 0) await new Promise((r) => setTimeout(r, 20));
  const t0 = performance.now();
  await emptied(queue);
  const seconds = (performance.now() - t0) / 1000;
  const failed = await queue.getFailedCount();
  if (failed > 0) throw new Error(`${failed} intake jobs failed during the drain at concurrency ${concurrency}`);
  await worker.stop();
  await queue.obliterate({ force: true });
  await queue.close();
  redis.disconnect();
  return { concurrency, jobs, seconds: Math.round(seconds * 100) / 100, jobsPerSec: Math.round(jobs / seconds) };
}
