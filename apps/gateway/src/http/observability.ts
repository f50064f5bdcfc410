import type { FastifyInstance } from 'fastify';
import { RefusalError } from '../use-cases/refusals.js';
import type { Metrics } from '@rm/runtime';

/** Counts every answered request by route template and status, and its latency. */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const labels = { route: request.routeOptions.url ?? 'unmatched', method: request.method, status: String(reply.statusCode) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
  // Refusals by a limit, by which limit: a rising rate says a client or a key needs attention.
  app.addHook('onError', async (_request, _reply, error) => {
    if (error instanceof RefusalError) metrics.refusals.inc({ reason: error.refusal });
  });
}
