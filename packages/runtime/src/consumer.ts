import { Job, UnrecoverableError, Worker, type MinimalJob } from 'bullmq';
import type { Redis } from './redis.js';
import type { Logger } from 'pino';
import { QUEUES, queuePrefix, type JobReply, type PayloadOf, type QueueKey } from '@rm/contracts';
import { StoreFullError } from '@rm/storage';
import type { Metrics } from './metrics.js';
import { sampledTraces, SpanKind, withSpan, type SpanOptions } from './tracing.js';
import { exponentialJitterBackoff, MAX_BACKOFF_MS } from './backoff.js';
import { sendReply } from './job-replies.js';
import { StoreFullLog } from './store-full-log.js';
import { WaitingOnSpace } from './waiting-on-space.js';

/** Worker deaths (stalls) a job survives before it fails for good. */
const MAX_STALLS = 5;

export type Handler<K extends QueueKey> = (payload: PayloadOf<K>, job: Job) => Promise<unknown>;

export interface ConsumerOptions {
  connection: Redis;
  /** KEY_PREFIX: the queue's hash-tagged BullMQ prefix is derived from it. */
  keyPrefix: string;
  concurrency: number;
  logger: Logger;
  /** Lock duration (JOB_LOCK_MS); the stalled-job check runs every half of it. */
  lockMs: number;
  /** The longest wait between two attempts of a job (default MAX_BACKOFF_MS). */
  maxBackoffMs?: number;
  /** Called once a job has failed for good (no attempt left, or unrecoverable), e.g. to dead-letter it. */
  onFailedForGood?: (job: Job, err: Error) => Promise<void>;
  /** Job counts and durations for Prometheus. */
  metrics?: Metrics;
  /** Where attempts refused by a full disk are said, once a minute: one per process (a consumer's own by default). */
  storeFullLog?: StoreFullLog;
}

/**
 * A BullMQ worker for one queue of the catalog. The payload is parsed again on dequeue: one that
 * does not parse can never succeed, so it fails at once without retries and stays in the failed set.
 * A job whose data names a reply inbox (`replyTo`) has its answer published there as soon as the
 * handler returns (before BullMQ records the completion), or its reason once it failed for good.
 */
/**
 * The consumer span of a job: it continues the trace the job carries (`trace`, added by the queue
 * it was sent on). A batched job (an intake job's reports, a gateway's decisions) carries one per
 * item instead: the span continues the first and links to every one, so each request's trace
 * reaches the job that served it.
 */
function jobSpan(queue: string, job: Job): SpanOptions {
  const data = (job.data ?? {}) as { trace?: string; reports?: { trace?: string }[]; decisions?: { trace?: string }[] };
  const items = (data.reports ?? data.decisions ?? []).map((i) => i?.trace).filter((t): t is string => typeof t === 'string');
  const sampled = sampledTraces(items);
  return {
    kind: SpanKind.CONSUMER,
    attributes: { 'messaging.system': 'bullmq', 'messaging.destination.name': queue, 'messaging.message.id': job.id ?? '', 'messaging.batch.message_count': Math.max(1, items.length) },
    // A batch follows the first of its requests the sampler kept, so each of them reaches here.
    parent: data.trace ?? sampled[0] ?? items[0],
    links: sampled,
  };
}

export function createConsumer<K extends QueueKey>(key: K, handler: Handler<K>, options: ConsumerOptions): Worker {
  const spec = QUEUES[key];
  const reply = (job: Job, answer: JobReply) =>
    void sendReply(options.connection, options.keyPrefix, job.data, answer).catch((err: unknown) =>
      options.logger.warn({ err, jobId: job.id }, 'could not publish the job\'s reply; its producer reads the job at its timeout'),
    );
  const storeFull = options.storeFullLog ?? new StoreFullLog(options.logger);
  const worker = new Worker(
    spec.name,
    async (job: Job) => {
      const parsed = spec.payload.safeParse(job.data);
      if (!parsed.success) {
        throw new UnrecoverableError(`invalid ${spec.name} payload: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      }
      const stop = options.metrics?.jobDuration.startTimer({ queue: spec.name });
      try {
        const value = await withSpan(`${spec.name} process`, jobSpan(spec.name, job), () => handler(parsed.data as PayloadOf<K>, job));
        reply(job, { ok: true, jobId: job.id ?? '', value });
        return value;
      } finally {
        stop?.();
      }
    },
    {
      connection: options.connection,
      prefix: queuePrefix(options.keyPrefix, key),
      concurrency: options.concurrency,
      lockDuration: options.lockMs,
      // A dead worker's job is found stalled by the first check after its lock expired: at most
      // 1.5 locks after the death (the lock was renewed at most half a lock before it).
      stalledInterval: Math.max(500, Math.floor(options.lockMs / 2)),
      // A job whose worker died this often is given up (it may be what kills them); one crash
      // (BullMQ's default) was too few for a restart loop, which is no fault of the job's.
      maxStalledCount: MAX_STALLS,
      autorun: false,
      settings: {
        backoffStrategy: (attemptsMade: number, type?: string, err?: Error, job?: MinimalJob) =>
          exponentialJitterBackoff(attemptsMade, type, err, job, Math.random, options.maxBackoffMs ?? MAX_BACKOFF_MS),
      },
    },
  );
  options.metrics?.consumes(spec.name);
  // Jobs a full disk refused run again as soon as one succeeds, not at their next backoff.
  const waitingOnSpace = new WaitingOnSpace(async (id) => {
    await (await Job.fromId(worker, id))?.promote();
  });
  worker.on('completed', () => {
    options.metrics?.jobs.inc({ queue: spec.name, outcome: 'completed' });
    void waitingOnSpace.succeeded();
  });
  worker.on('failed', (job, err) => {
    const attempts = job?.opts.attempts ?? 1;
    const final = job ? job.attemptsMade >= attempts || err instanceof UnrecoverableError : true;
    options.metrics?.jobs.inc({ queue: spec.name, outcome: final ? 'failed' : 'retried' });
    (final ? options.metrics?.failedForGood : options.metrics?.retries)?.inc({ queue: spec.name });
    // A full disk fails every job that writes, each retried: one line a minute says so for all.
    if (!final && err instanceof StoreFullError) {
      storeFull.note(spec.name, err);
      if (job?.id) waitingOnSpace.refused(job.id);
    } else options.logger[final ? 'error' : 'warn']({ err, jobId: job?.id, attemptsMade: job?.attemptsMade, requestId: job?.data?.requestId }, final ? 'job failed for good' : 'job failed, will retry');
    if (final && job) reply(job, { ok: false, jobId: job.id ?? '', reason: err.message });
    if (final && job && options.onFailedForGood) {
      options.onFailedForGood(job, err).catch((cause: unknown) => options.logger.error({ err: cause, jobId: job.id }, 'could not hand over a job that failed for good'));
    }
  });
  worker.on('error', (err) => options.logger.error({ err }, 'worker error'));
  return worker;
}
