import type { FastifyInstance } from 'fastify';
import type { Counter, Histogram } from 'prom-client';
import { RefusalError } from '../errors/refusals.js';
import type { Metrics } from '@rm/runtime';

type Labels = 'route' | 'method' | 'status';

/** Counts every answered request by route template and status, and its latency. */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  // The labelled series of each route, method and status, found by one string: given the labels
  // as an object, prom-client would sort and join them again on every request. Bounded: routes
  // are templates, and methods and statuses few.
  const series = new Map<string, { count: Counter.Internal; duration: Histogram.Internal<Labels> }>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${reply.statusCode} ${route}`;
    let s = series.get(key);
    if (!s) {
      const labels = { route, method: request.method, status: String(reply.statusCode) };
      s = { count: metrics.httpRequests.labels(labels), duration: metrics.httpDuration.labels(labels) };
      series.set(key, s);
    }
    s.count.inc();
    s.duration.observe(reply.elapsedTime / 1000);
    done();
  });
  // Refusals by a limit, by which limit: a rising rate says a client or a key needs attention.
  app.addHook('onError', async (_request, _reply, error) => {
    if (error instanceof RefusalError) metrics.refusals.inc({ reason: error.refusal });
  });
}
