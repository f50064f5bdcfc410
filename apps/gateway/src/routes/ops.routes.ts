import type { FastifyPluginAsync } from 'fastify';
import { probeDependencies } from '@rm/runtime';
import type { AccountStore } from '@rm/storage';
import type { GatewayDeps } from '../deps.js';

type Deps = Pick<GatewayDeps, 'redis' | 'metrics'> & { store: AccountStore };

/** Liveness, readiness and Prometheus metrics, outside /v1 and without API keys. */
export function opsRoutes(deps: Deps): FastifyPluginAsync {
  return async (app) => {
    app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok', service: 'gateway' }));
    // Ready while Redis answers: submit, check and the ban API need only Redis and the keys this
    // gateway has read, so a store election (MongoDB's 10 to 12 s) must not take every gateway out
    // of the Service at once. The store's state is reported; a request that needs it says so.
    app.get('/ready', { schema: { hide: true } }, async (_request, reply) => {
      const { redis, store, warnings } = await probeDependencies(deps.redis, deps.store);
      return reply.status(redis ? 200 : 500).send({ status: redis ? 'ready' : 'not ready', redis, store, warnings });
    });
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      return reply.type(deps.metrics.contentType).send(await deps.metrics.scrape());
    });
  };
}
