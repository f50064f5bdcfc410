import type { EventEmitter } from 'node:events';
import type { Queue, QueueEvents } from 'bullmq';

export class DecisionQueueError extends Error {}
export class DecisionTimeoutError extends Error {}
export class DecisionFailedError extends Error {}

/**
 * Adds a decision job and waits for its answer from the decisions queue's events. The listeners
 * are attached before the job is added, so its end cannot come before them: BullMQ's
 * `waitUntilFinished`, which attaches them after the add, asks Redis whether the job has already
 * finished (one more script per decision) to cover that gap. At the timeout the job is asked for
 * once, in case its event was missed (a QueueEvents reading from just before it started).
 */
export function addAndAwait(queue: Queue, events: QueueEvents, name: string, data: unknown, jobId: string, timeoutMs: number): Promise<unknown> {
  const completed = `completed:${jobId}`;
  const failed = `failed:${jobId}`;
  // QueueEvents also emits `<event>:<job id>`, which its typed listener map does not name.
  const emitter = events as unknown as Pick<EventEmitter, 'on' | 'off'>;
  return new Promise((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      emitter.off(completed, onCompleted);
      emitter.off(failed, onFailed);
    };
    const onCompleted = (args: { returnvalue: unknown }) => {
      stop();
      resolve(args.returnvalue);
    };
    const onFailed = (args: { failedReason: string }) => {
      stop();
      reject(new DecisionFailedError(args.failedReason));
    };
    const timedOut = () => reject(new DecisionTimeoutError(`no answer within ${timeoutMs} ms`));
    const timer = setTimeout(() => {
      stop();
      queue.getJob(jobId).then((job) => (job?.finishedOn && !job.failedReason ? resolve(job.returnvalue) : timedOut()), timedOut);
    }, timeoutMs);
    emitter.on(completed, onCompleted);
    emitter.on(failed, onFailed);
    queue.add(name, data, { jobId }).catch((err: unknown) => {
      stop();
      reject(new DecisionQueueError('the decision job could not be queued', { cause: err }));
    });
  });
}
