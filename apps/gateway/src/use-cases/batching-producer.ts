import type { JobsOptions, Queue } from 'bullmq';

interface Pending {
  name: string;
  data: unknown;
  opts: JobsOptions;
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * Adds jobs to a queue in batches: every job asked for during one turn of the event loop goes to
 * Redis in a single `addBulk` (one MULTI), and each caller's promise settles only once that batch
 * is stored. Concurrent submits share one round trip and one AOF fsync; "200 only after the job is
 * in Redis" still holds for each of them.
 */
export class BatchingProducer {
  private pending: Pending[] = [];

  constructor(
    private readonly queue: Queue,
    private readonly maxBatch = 500,
  ) {}

  add(name: string, data: unknown, opts: JobsOptions): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ name, data, opts, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => this.flush());
      else if (this.pending.length >= this.maxBatch) this.flush();
    });
  }

  private flush(): void {
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    this.queue.addBulk(batch.map(({ name, data, opts }) => ({ name, data, opts }))).then(
      () => batch.forEach((p) => p.resolve()),
      (err: Error) => batch.forEach((p) => p.reject(err)),
    );
  }
}
