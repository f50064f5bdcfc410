import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Queue } from 'bullmq';
import { OUTBOUND_OUTCOMES, OUTBOUND_TARGETS, setOutboundRecorder } from './outbound-calls.js';

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
  readonly platformCalls: Counter<'target' | 'outcome'>;

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
    this.platformCalls = new Counter({
      name: 'rm_platform_calls_total',
      help: 'Outbound calls to the chat platform, the user directory and the decision webhook, by outcome (ok, error, rate_limited, unreachable)',
      labelNames: ['target', 'outcome'],
      registers: r,
    });
    for (const target of OUTBOUND_TARGETS) for (const outcome of OUTBOUND_OUTCOMES) this.platformCalls.inc({ target, outcome }, 0);
    setOutboundRecorder((target, outcome) => this.platformCalls.inc({ target, outcome }));
  }

  /**
   * Counters of a queue this process consumes, from zero: a series that first appears at 1 is
   * invisible to `increase()`, so an alert on the first failure would never fire.
   */
  consumes(queue: string): void {
    for (const outcome of ['completed', 'retried', 'failed']) this.jobs.inc({ queue, outcome }, 0);
    this.retries.inc({ queue }, 0);
    this.failedForGood.inc({ queue }, 0);
  }

  /**
   * Readiness as series, probed at each scrape: `rm_ready` (1 when the process can do its work,
   * as its /ready says) and `rm_dependency_up` per dependency (`redis`, `store`), for the alerts
   * on a worker kind with no ready process and on Redis or the store being away.
   */
  watchReadiness(probe: () => Promise<{ ready: boolean; redis: boolean; store: boolean }>): void {
    // Both gauges are collected in one scrape: one probe answers both.
    let inFlight: Promise<{ ready: boolean; redis: boolean; store: boolean }> | undefined;
    const once = () => (inFlight ??= probe().finally(() => (inFlight = undefined)));
    const failed = { ready: false, redis: false, store: false };
    new Gauge({
      name: 'rm_ready',
      help: 'Whether this process can do its work now (1), as its /ready answers',
      registers: [this.registry],
      async collect() {
        this.set((await once().catch(() => failed)).ready ? 1 : 0);
      },
    });
    new Gauge({
      name: 'rm_dependency_up',
      help: 'Whether a dependency answers this process now (1): redis, store',
      labelNames: ['dependency'],
      registers: [this.registry],
      async collect() {
        const state = await once().catch(() => failed);
        this.set({ dependency: 'redis' }, state.redis ? 1 : 0);
        this.set({ dependency: 'store' }, state.store ? 1 : 0);
      },
    });
  }

  /** Queue depth gauges and the age of each queue's oldest waiting job, read from Redis when Prometheus scrapes. */
  watchQueues(queues: Queue[]): void {
    const states = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;
    new Gauge({
      name: 'rm_queue_oldest_waiting_seconds',
      help: 'Age of the oldest job waiting in each queue, since it could first run (added, or its delay over; 0 when none waits)',
      labelNames: ['queue'],
      registers: [this.registry],
      async collect() {
        for (const q of queues) {
          try {
            // The wait list is pushed on the left and taken from the right: ascending, its first is the oldest.
            const [oldest] = await q.getJobs(['wait'], 0, 0, true);
            // A delayed job could run only from its delay's end: its age counts from there.
            this.set({ queue: q.name }, oldest ? Math.max(0, (Date.now() - oldest.timestamp - (oldest.delay ?? 0)) / 1000) : 0);
          } catch {
            // Redis away: keep the last value rather than failing the whole scrape.
          }
        }
      },
    });
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
