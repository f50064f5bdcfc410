import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { HttpMetrics } from './http-metrics.js';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];
/** Latencies on, between and beyond the bounds. */
const OBSERVED: [route: string, method: string, status: number, seconds: number][] = [
  ['/v1/reports/new', 'POST', 200, 0.0004],
  ['/v1/reports/new', 'POST', 200, 0.001],
  ['/v1/reports/new', 'POST', 200, 0.0031],
  ['/v1/reports/:id', 'GET', 429, 0.2],
  ['/v1/reports/:id', 'GET', 200, 12],
  ['/v1/reports/new', 'POST', 200, 2.5],
  ['unmatched', 'GET', 404, 0.05],
];

/** The same requests through prom-client's own counter and histogram, as the gateway counted them before. */
async function promClientScrape(contentType?: string): Promise<string> {
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'gateway' });
  const labelNames = ['route', 'method', 'status'];
  const count = new Counter({ name: 'rm_http_requests_total', help: 'HTTP requests by route, method and status', labelNames, registers: [registry] });
  const duration = new Histogram({ name: 'rm_http_request_duration_seconds', help: 'HTTP request latency by route, method and status', labelNames, buckets: BUCKETS, registers: [registry] });
  for (const [route, method, status, s] of OBSERVED) {
    count.inc({ route, method, status: String(status) });
    duration.observe({ route, method, status: String(status) }, s);
  }
  if (contentType) registry.setContentType(contentType as never);
  return registry.metrics();
}

async function httpMetricsScrape(contentType?: string): Promise<string> {
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'gateway' });
  const http = new HttpMetrics(registry);
  for (const [route, method, status, s] of OBSERVED) http.of(route, method, status).observe(s);
  if (contentType) registry.setContentType(contentType as never);
  return registry.metrics();
}

describe('HttpMetrics', () => {
  it("scrapes sample for sample as prom-client's counter and histogram of the same requests", async () => {
    expect(await httpMetricsScrape()).toBe(await promClientScrape());
  });

  it('in OpenMetrics too', async () => {
    const openMetrics = Registry.OPENMETRICS_CONTENT_TYPE;
    expect(await httpMetricsScrape(openMetrics)).toBe(await promClientScrape(openMetrics));
  });

  it('as JSON too, and a reset empties both', async () => {
    const registry = new Registry();
    const http = new HttpMetrics(registry);
    http.of('/v1/reports/new', 'POST', 200).observe(0.003);
    const json = await registry.getMetricsAsJSON();
    expect(json.map((m) => m.name)).toEqual(['rm_http_requests_total', 'rm_http_request_duration_seconds']);
    expect(json[0]!.values).toEqual([{ labels: { route: '/v1/reports/new', method: 'POST', status: '200' }, value: 1 }]);
    registry.resetMetrics();
    expect((await registry.getMetricsAsJSON()).every((m) => m.values.length === 0)).toBe(true);
  });
});
