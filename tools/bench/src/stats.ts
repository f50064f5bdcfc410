/** Latency samples of one operation, in milliseconds, with the percentiles we report. */
export class Samples {
  private values: number[] = [];
  readonly statuses = new Map<number, number>();

  add(ms: number, status: number): void {
    this.values.push(ms);
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
  }

  get count(): number {
    return this.values.length;
  }

  summary(seconds: number): OperationSummary {
    const sorted = Float64Array.from(this.values).sort();
    const at = (p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);
    const round = (n: number) => Math.round(n * 100) / 100;
    return {
      requests: sorted.length,
      reqPerSec: round(sorted.length / seconds),
      p50: round(at(50)),
      p90: round(at(90)),
      p99: round(at(99)),
      max: round(sorted.length === 0 ? 0 : sorted[sorted.length - 1]!),
      statuses: Object.fromEntries([...this.statuses.entries()].sort(([a], [b]) => a - b)),
    };
  }
}

export interface OperationSummary {
  requests: number;
  reqPerSec: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
}
