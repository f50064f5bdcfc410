/**
 * Groups the calls made during one turn of the event loop into a single call of `flush`, and gives
 * each caller its own result once that call has settled. Concurrent requests or jobs then share
 * one round trip (Redis) or one transaction (the store) instead of paying for one each.
 */
export class MicroBatcher<I, O> {
  private pending: { item: I; resolve: (out: O) => void; reject: (err: Error) => void }[] = [];

  /** `flush` must answer one result per item, in order. */
  constructor(
    private readonly flush: (items: I[]) => Promise<O[]>,
    private readonly maxBatch = 500,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => this.run());
      else if (this.pending.length >= this.maxBatch) this.run();
    });
  }

  private run(): void {
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    this.flush(batch.map((p) => p.item)).then(
      (results) => batch.forEach((p, i) => p.resolve(results[i]!)),
      (err: Error) => batch.forEach((p) => p.reject(err)),
    );
  }
}
