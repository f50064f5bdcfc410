import type { FastifyInstance } from 'fastify';
import { ServerSpan, tracingEnabled } from '@rm/runtime';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's server span when tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT), else null. */
    trace: ServerSpan | null;
  }
}

/**
 * A server span per request when tracing is on. Hand-made rather than @fastify/otel, whose spans
 * carry the request's path (upload tokens are path segments) and one span per hook
 * (decisions.md). The gateway has no async context (main.ts): the span is kept on the request,
 * entered around each handler (so the store and Redis calls it starts with are its children), and
 * the jobs a request adds carry `request.trace.traceparent`, given explicitly.
 */
export function registerTracing(app: FastifyInstance): void {
  app.decorateRequest('trace', null);
  if (!tracingEnabled) return;
  app.addHook('onRequest', (request, _reply, done) => {
    request.trace = ServerSpan.start(request.method, request.routeOptions.url ?? 'unmatched', request.headers) ?? null;
    done();
  });
  // Every route registered after this, in every plugin: the handler runs inside its request's span.
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function (this: unknown, request, reply) {
      return request.trace ? request.trace.run(() => handler.call(this as never, request, reply)) : handler.call(this as never, request, reply);
    } as typeof handler;
  });
  app.addHook('onResponse', (request, reply, done) => {
    request.trace?.end(reply.statusCode);
    done();
  });
}
