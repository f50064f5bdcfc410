import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Queue } from 'bullmq';

/**
 * Prometheus metrics of one process. Every process has its own registry with the default Node
 * metrics (memory, event loop lag, GC) labelled by service.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'route' | 'method' | 'status'>;
  readonly httpDuration: Histogram<'route' | 'method' | 'status'>;
  readonly jobs: Counter<'queue' | 'outcome'>;
  readonly jobDuration: Histogram<'queue'>;
  readonly retries: Counter<'queue'>;
  readonly failedForGood: Counter<'queue'>;
  readonly refusals: Counter<'reason'>;

  constructor(readonly service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
    const r = [this.registry];
    this.httpRequests = new Counter({ name: 'rm_http_requests_total', help: 'HTTP requests by route, method and status', labelNames: ['route', 'method', 'status'], registers: r });
    this.httpDuration = new Histogram({
      name: 'rm_http_request_duration_seconds',
      help: 'HTTP request latency by route, method and status',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers: r,
    });
    this.jobs = new Counter({ name: 'rm_jobs_total', help: 'Jobs processed by queue and outcome (completed, failed, retried)', labelNames: ['queue', 'outcome'], registers: r });
    this.jobDuration = new Histogram({ name: 'rm_job_duration_seconds', help: 'Job processing time by queue', labelNames: ['queue'], buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30], registers: r });
    this.retries = new Counter({ name: 'rm_job_retries_total', help: 'Job attempts that failed and will be retried', labelNames: ['queue'], registers: r });
    this.failedForGood = new Counter({ name: 'rm_jobs_failed_total', help: 'Jobs that failed for good, on every queue', labelNames: ['queue'], registers: r });
    this.refusals = new Counter({ name: 'rm_refusals_total', help: 'Requests refused by a limit (rate, daily, banned, duplicate)', labelNames: ['reason'], registers: r });
  }

  /** Queue depth gauges, read from Redis when Prometheus scrapes. */
  watchQueues(queues: Queue[]): void {
    const states = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;
    new Gauge({
      name: 'rm_queue_jobs',
      help: 'Jobs in each queue by state',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      async collect() {
        for (const q of queues) {
          try {
            const counts = await q.getJobCounts(...states);
            for (const s of states) this.set({ queue: q.name, state: s }, counts[s] ?? 0);
          } catch {
            // Redis away: keep the last values rather than failing the whole scrape.
          }
        }
      },
    });
  }

  /** Whether a NearCache answers from memory, and how much it keeps, read at each scrape. */
  watchNearCache(cache: string, near: { active: boolean; size: { entries: number; bytes: number } }): void {
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['cache'],
        registers: [this.registry],
        collect() {
          this.set({ cache }, read());
        },
      });
    gauge('rm_memory_cache_active', 'Whether answers are kept in memory (1): Redis tracks their keys for this process', () => (near.active ? 1 : 0));
    gauge('rm_memory_cache_entries', 'Answers kept in memory', () => near.size.entries);
    gauge('rm_memory_cache_bytes', 'Estimated bytes of the answers kept in memory', () => near.size.bytes);
  }

  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
