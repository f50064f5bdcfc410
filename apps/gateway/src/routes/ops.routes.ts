import type { FastifyPluginAsync } from 'fastify';
import { probeDependencies } from '@rm/runtime';
import type { GatewayDeps } from '../deps.js';

/** Liveness, readiness and Prometheus metrics, outside /v1 and without API keys. */
export function opsRoutes(deps: GatewayDeps): FastifyPluginAsync {
  return async (app) => {
    app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok', service: 'gateway' }));
    app.get('/ready', { schema: { hide: true } }, async (_request, reply) => {
      const { redis, store, warnings } = await probeDependencies(deps.redis, deps.store);
      return reply.status(redis && store ? 200 : 500).send({ status: redis && store ? 'ready' : 'not ready', redis, store, warnings });
    });
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      return reply.type(deps.metrics.contentType).send(await deps.metrics.scrape());
    });
  };
}
