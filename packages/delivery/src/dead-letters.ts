import type { Job, Queue } from 'bullmq';
import { openQueue, type Redis } from '@rm/runtime';
import { DeadNotification, jobIdFor, QUEUES } from '@rm/contracts';
import { notificationJobOptions } from './notifier.js';

/**
 * The dead-letter queue of notifications. Nothing consumes it: a dead letter waits there until an
 * operator replays it (`notifications replay`), which puts the original job back under its own id.
 */
export class DeadLetters {
  readonly dead: Queue;
  readonly live: Queue;

  constructor(connection: Redis, keyPrefix: string) {
    this.dead = openQueue('notificationsDead', connection, keyPrefix);
    this.live = openQueue('notifications', connection, keyPrefix);
  }

  /** Keeps a job that failed for good, under its own id (a second failure of the same id is one letter). */
  async bury(job: Job, err: Error): Promise<void> {
    const backoff = typeof job.opts.backoff === 'number' ? { type: 'fixed', delay: job.opts.backoff } : job.opts.backoff;
    const letter: DeadNotification = {
      jobId: String(job.id),
      name: job.name,
      data: job.data,
      attempts: job.opts.attempts ?? 1,
      ...(backoff && { backoff: { type: backoff.type, delay: backoff.delay ?? 0 } }),
      attemptsMade: job.attemptsMade,
      failedReason: err.message,
      failedAt: Date.now(),
    };
    await this.dead.add(job.name, letter, { jobId: jobIdFor.notificationsDead(letter.jobId) });
  }

  /** Oldest first. */
  async list(limit: number): Promise<{ total: number; letters: DeadNotification[] }> {
    const [total, jobs] = await Promise.all([this.dead.getWaitingCount(), this.dead.getJobs(['waiting'], 0, limit - 1, true)]);
    return { total, letters: jobs.map((j) => DeadNotification.parse(j.data)) };
  }

  /** Puts the dead letter's job back on the notifications queue with fresh attempts; false when no such letter. */
  async replay(jobId: string): Promise<boolean> {
    const entry = await this.dead.getJob(jobIdFor.notificationsDead(jobId));
    if (!entry) return false;
    const letter = DeadNotification.parse(entry.data);
    // The failed original still holds the id, and BullMQ ignores an add under an existing id.
    await (await this.live.getJob(letter.jobId))?.remove();
    await this.live.add(letter.name, letter.data, {
      jobId: letter.jobId,
      ...notificationJobOptions(letter.attempts, letter.backoff ?? QUEUES.notifications.backoff),
    });
    await entry.remove();
    return true;
  }

  /** Replays every dead letter; returns how many. */
  async replayAll(): Promise<number> {
    let replayed = 0;
    for (const job of await this.dead.getJobs(['waiting'], 0, -1, true)) if (await this.replay(String(job.id))) replayed += 1;
    return replayed;
  }

  async close(): Promise<void> {
    await Promise.all([this.dead.close(), this.live.close()]);
  }
}
