export interface MicroBatcherOptions {
  /** Items per call of `flush` at most (500). */
  maxBatch?: number;
  /**
   * Calls of `flush` running at once at most (no limit by default). While that many run, new items
   * wait and leave together when one settles: the busier the target, the larger the batches.
   */
  maxInFlight?: number;
}

type Pending<I, O> = { item: I; resolve: (out: O) => void; reject: (err: Error) => void };

/**
 * Groups the calls made during one turn of the event loop into a single call of `flush`, and gives
 * each caller its own result once that call has settled. Concurrent requests or jobs then share
 * one round trip (Redis) or one transaction (the store) instead of paying for one each.
 */
export class MicroBatcher<I, O> {
  private pending: Pending<I, O>[] = [];
  private scheduled = false;
  private inFlight = 0;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;

  /** `flush` must answer one result per item, in order. */
  constructor(
    private readonly flush: (items: I[]) => Promise<O[]>,
    options: MicroBatcherOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 500;
    this.maxInFlight = options.maxInFlight ?? Infinity;
  }

  submit(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.maxBatch && this.inFlight < this.maxInFlight) this.run();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          if (this.inFlight < this.maxInFlight) this.run();
        });
      }
    });
  }

  private run(): void {
    const batch = this.pending.splice(0, this.maxBatch);
    if (batch.length === 0) return;
    this.inFlight += 1;
    this.flush(batch.map((p) => p.item))
      .then(
        (results) => batch.forEach((p, i) => p.resolve(results[i]!)),
        (err: Error) => batch.forEach((p) => p.reject(err)),
      )
      .finally(() => {
        this.inFlight -= 1;
        // What arrived while the limit was reached leaves now.
        if (this.pending.length > 0 && !this.scheduled) this.run();
      });
  }
}
