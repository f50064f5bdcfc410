import type { FastifyInstance } from 'fastify';
import { RefusalError } from '../errors/refusals.js';
import type { Metrics } from '@rm/runtime';

/** Counts every answered request by route template and status, and its latency. */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.http.of(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode).observe(reply.elapsedTime / 1000);
    done();
  });
  // Refusals by a limit, by which limit: a rising rate says a client or a key needs attention.
  app.addHook('onError', async (_request, _reply, error) => {
    if (error instanceof RefusalError) metrics.refusals.inc({ reason: error.refusal });
  });
}
