import type { Queue } from 'bullmq';
import type { ReplyInbox } from '@rm/runtime';

export class DecisionQueueError extends Error {}
export class DecisionTimeoutError extends Error {}
export class DecisionFailedError extends Error {}

/**
 * Adds a decision job naming this gateway's reply inbox and waits for the worker's reply there.
 * The wait starts before the job is added, so its reply cannot come first. At the timeout the job
 * is asked for once, in case its reply was not heard (published while the inbox's connection was
 * down) or never sent (a worker of an earlier version, during an upgrade).
 */
export function addAndAwait(queue: Queue, inbox: ReplyInbox, name: string, data: object, jobId: string, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const stop = inbox.expect(jobId, (reply) => {
      clearTimeout(timer);
      if (reply.ok) resolve(reply.value);
      else reject(new DecisionFailedError(reply.reason));
    });
    const timedOut = () => reject(new DecisionTimeoutError(`no answer within ${timeoutMs} ms`));
    const timer = setTimeout(() => {
      stop();
      queue.getJob(jobId).then((job) => (job?.finishedOn && !job.failedReason ? resolve(job.returnvalue) : timedOut()), timedOut);
    }, timeoutMs);
    queue.add(name, { ...data, replyTo: inbox.id }, { jobId }).catch((err: unknown) => {
      stop();
      clearTimeout(timer);
      reject(new DecisionQueueError('the decision job could not be queued', { cause: err }));
    });
  });
}
