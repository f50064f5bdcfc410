import type { JobsOptions } from 'bullmq';
import { z } from 'zod';
import { QUEUES, isCaseSync, jobIdFor, notificationCoalesceId, type NotificationJob } from '@rm/contracts';
import { CaseSyncMarks } from './case-sync-marks.js';
import { BatchingProducer, env, openQueue, type Redis } from '@rm/runtime';

/**
 * The retry policy of notifications, declared by every process that enqueues them: BullMQ keeps
 * attempts and backoff on the job, so the producer sets them and the notification worker applies them.
 */
export const notifyPolicyShape = {
  /** Attempts per notification before it goes to the dead-letter queue. */
  NOTIFY_ATTEMPTS: env.positiveInt(QUEUES.notifications.attempts),
  /** Base delay of the exponential backoff (with jitter) between attempts. */
  NOTIFY_BACKOFF_MS: env.positiveInt(QUEUES.notifications.backoff.delay),
};
/**
 * The moderation worker's setting: how long a decision's sync of the case's chat message waits
 * before it runs, so that the syncs of decisions in quick succession (a claim, its approval, an
 * undo) become one chat edit.
 */
export const caseSyncDelayShape = { CASE_SYNC_DELAY_MS: env.nonNegativeInt(500) };
export type NotifyPolicy = z.infer<z.ZodObject<typeof notifyPolicyShape>>;

/** Kept after the end so `jobs failed` and the dead-letter replay can find a job; then trimmed. */
const RETENTION = { removeOnComplete: 1000, removeOnFail: 5000 } as const;

export function notificationJobOptions(attempts: number, backoff: { type: string; delay: number }): JobsOptions {
  return { attempts, backoff, ...RETENTION };
}

/** Puts notification jobs on the queue; each job id is derived from its payload, so a repeat is ignored. */
export interface Notifier {
  notify(job: NotificationJob): Promise<void>;
  close(): Promise<void>;
}

export function createNotifier(connection: Redis, keyPrefix: string, policy: NotifyPolicy & { CASE_SYNC_DELAY_MS?: number }): Notifier {
  const queue = openQueue('notifications', connection, keyPrefix, {
    defaultJobOptions: notificationJobOptions(policy.NOTIFY_ATTEMPTS, { type: QUEUES.notifications.backoff.type, delay: policy.NOTIFY_BACKOFF_MS }),
  });
  // The notifications of jobs running at once go to Redis in one round trip.
  const producer = new BatchingProducer(queue);
  const marks = new CaseSyncMarks(connection, keyPrefix);
  return {
    notify: async (job) => {
      const jobId = jobIdFor.notifications(job);
      if (!isCaseSync(job)) return producer.add(job.kind, job, { jobId });
      // A sync of the case that is queued and not started will show this change too.
      if (!(await marks.claim(job.caseId, jobId))) return;
      try {
        const delay = job.kind === 'case.sync' ? (policy.CASE_SYNC_DELAY_MS ?? 0) : 0;
        await producer.add(job.kind, job, { jobId, delay, deduplication: { id: notificationCoalesceId(job), keepLastIfActive: true } });
      } catch (err) {
        // Unmarked, the next report of the case adds its own sync (a retry of this one would too).
        await marks.clear(job.caseId).catch(() => undefined);
        throw err;
      }
    },
    close: () => queue.close(),
  };
}
