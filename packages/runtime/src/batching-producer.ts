import type { JobsOptions, Queue } from 'bullmq';
import { MicroBatcher } from './micro-batcher.js';

/** Batches up to this size are sent as single commands rather than one addBulk. */
const SINGLE_COMMANDS_UP_TO = 4;

interface NewJob {
  name: string;
  data: unknown;
  opts: JobsOptions;
}

/**
 * Adds jobs to a queue in batches: every job asked for during one turn of the event loop goes to
 * Redis together (one `addBulk` pipeline, or single commands for a few), and each caller's
 * promise settles only once the whole batch is stored, so "acknowledged only after the job is in
 * Redis" still holds for each of them. Concurrent submits (or jobs) share one round trip and one
 * AOF fsync.
 */
export class BatchingProducer {
  private readonly batcher: MicroBatcher<NewJob, unknown>;

  constructor(queue: Queue) {
    // addBulk builds an ioredis pipeline, ~75 µs on a connection carrying BullMQ's scripts (see
    // createRedis); a few jobs are cheaper sent as single commands, back to back.
    this.batcher = new MicroBatcher<NewJob, unknown>((jobs) =>
      jobs.length <= SINGLE_COMMANDS_UP_TO ? Promise.all(jobs.map((j) => queue.add(j.name, j.data, j.opts))) : queue.addBulk(jobs),
    );
  }

  async add(name: string, data: unknown, opts: JobsOptions): Promise<void> {
    await this.batcher.submit({ name, data, opts });
  }
}
