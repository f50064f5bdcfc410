import { jobIdFor, QUEUES, type DeadlineJob } from '@rm/contracts';
import type { Redis } from './redis.js';
import { openQueue } from './queues.js';
import { BatchingProducer } from './batching-producer.js';

/** Puts delayed jobs on the deadlines queue (claim expiry, SLA check), each once. */
export interface Deadlines {
  /** Due at `dueAt` (ms since the epoch; at once if past). The job id derives from the job: a repeat adds nothing. */
  schedule(job: DeadlineJob, dueAt: number): Promise<void>;
  close(): Promise<void>;
}

export function createDeadlines(connection: Redis, keyPrefix: string): Deadlines {
  const spec = QUEUES.deadlines;
  // Kept a while after they ran, so a redelivered decision or intake job re-adding one is ignored.
  const queue = openQueue('deadlines', connection, keyPrefix, {
    defaultJobOptions: { attempts: spec.attempts, backoff: spec.backoff, removeOnComplete: 10_000, removeOnFail: 5_000 },
  });
  // The deadlines of jobs running at once (an intake batch opening many cases) go in one round trip.
  const producer = new BatchingProducer(queue);
  return {
    schedule: (job, dueAt) => producer.add(job.kind, job, { jobId: jobIdFor.deadlines(job), delay: Math.max(0, dueAt - Date.now()) }),
    close: () => queue.close(),
  };
}
