import type { Metric, Registry } from 'prom-client';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/** The requests of one route template, method and status. */
export interface HttpSeries {
  /** Counts an answered request and its latency in seconds. */
  observe(seconds: number): void;
}

interface Series extends HttpSeries {
  labels: { route: string; method: string; status: string };
  count: number;
  sum: number;
  /** Requests per bucket, not cumulative; the last one is above every bound. */
  perBucket: number[];
}

/**
 * `rm_http_requests_total` and `rm_http_request_duration_seconds`, kept as plain numbers per
 * series and turned into Prometheus samples only when scraped. prom-client's counter and
 * histogram check and hash their labels on every observation: under check and the ban API that
 * was the largest item of the gateway's own code. The exposition is prom-client's, sample for
 * sample (the registry formats both).
 */
export class HttpMetrics {
  private readonly series = new Map<string, Series>();

  constructor(registry: Registry) {
    const all = () => [...this.series.values()];
    const reset = () => this.series.clear();
    registry.registerMetric(
      asMetric({
        name: 'rm_http_requests_total',
        help: 'HTTP requests by route, method and status',
        type: 'counter',
        values: () => all().map((s) => ({ labels: s.labels, value: s.count })),
        reset,
      }),
    );
    registry.registerMetric(
      asMetric({
        name: 'rm_http_request_duration_seconds',
        help: 'HTTP request latency by route, method and status',
        type: 'histogram',
        values: () => all().flatMap(histogramSamples),
        reset,
      }),
    );
  }

  /** The series of a route template, method and status, made on first use. */
  of(route: string, method: string, status: number): HttpSeries {
    const key = `${method} ${status} ${route}`;
    let s = this.series.get(key);
    if (!s) {
      s = {
        labels: { route, method, status: String(status) },
        count: 0,
        sum: 0,
        perBucket: new Array<number>(BUCKETS.length + 1).fill(0),
        observe(seconds) {
          this.count++;
          this.sum += seconds;
          let b = 0;
          while (b < BUCKETS.length && seconds > BUCKETS[b]!) b++;
          this.perBucket[b]!++;
        },
      };
      this.series.set(key, s);
    }
    return s;
  }
}

/** A histogram series' samples as prom-client writes them: cumulative buckets, +Inf, sum, count. */
function histogramSamples(s: Series) {
  const name = 'rm_http_request_duration_seconds';
  let cumulative = 0;
  const buckets = BUCKETS.map((le, i) => {
    cumulative += s.perBucket[i]!;
    return { labels: { le }, sharedLabels: s.labels, value: cumulative, metricName: `${name}_bucket` };
  });
  return [
    ...buckets,
    { labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.count, metricName: `${name}_bucket` },
    { labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${name}_sum` },
    { labels: {}, sharedLabels: s.labels, value: s.count, metricName: `${name}_count` },
  ];
}

/** A metric the registry can scrape: what it reads of prom-client's own (name, help, type, get, reset). */
function asMetric(m: { name: string; help: string; type: 'counter' | 'histogram'; values: () => unknown[]; reset: () => void }): Metric {
  const metric = {
    name: m.name,
    help: m.help,
    type: m.type,
    aggregator: 'sum',
    get: async () => ({ name: metric.name, help: m.help, type: m.type, values: m.values(), aggregator: 'sum' }),
    reset: m.reset,
  };
  return metric as unknown as Metric;
}
