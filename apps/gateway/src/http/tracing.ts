import type { FastifyInstance, FastifyRequest } from 'fastify';
import { serverSpan, tracingEnabled, type ServerSpan } from '@rm/runtime';

const spans = new WeakMap<FastifyRequest, ServerSpan>();

/**
 * A server span per request when tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT): entered before
 * authentication, so every span of the request (the intake job's report, the decision's job) is
 * its child. Hand-made rather than @fastify/otel, whose spans carry the request's path (upload
 * tokens are path segments) and one span per hook (decisions.md).
 */
export function registerTracing(app: FastifyInstance): void {
  if (!tracingEnabled) return;
  app.addHook('onRequest', (request, _reply, done) => {
    const span = serverSpan(request.method, request.routeOptions.url ?? 'unmatched', request.headers);
    if (!span) return done();
    spans.set(request, span);
    span.enter(done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    spans.get(request)?.end(reply.statusCode);
    done();
  });
}
