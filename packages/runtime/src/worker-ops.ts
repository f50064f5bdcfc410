import type { Server } from 'node:http';
import type { QueueKey } from '@rm/contracts';
import type { Redis } from './redis.js';
import { openQueue } from './queues.js';
import type { Logger } from 'pino';
import { Metrics } from './metrics.js';
import { startOpsServer } from './ops-server.js';
import { probeDependencies, type ProbedStore } from './readiness.js';

export interface WorkerOps {
  metrics: Metrics;
  close(): Promise<void>;
}

/**
 * A worker's metrics and its /health, /ready, /metrics port (METRICS_PORT; 0 turns the port off).
 * Ready means Redis and the store answer now; /ready also lists what is wrong with Redis (checkRedis).
 */
export async function startWorkerOps(
  service: string,
  config: { METRICS_PORT: number; METRICS_HOST: string },
  deps: { redis: Redis; keyPrefix: string; store: ProbedStore; queues: QueueKey[]; logger: Logger },
): Promise<WorkerOps> {
  const metrics = new Metrics(service);
  const queues = deps.queues.map((key) => openQueue(key, deps.redis, deps.keyPrefix));
  metrics.watchQueues(queues);
  const probe = async () => {
    const { redis, store } = await probeDependencies(deps.redis, deps.store);
    return { ready: redis && store, redis, store };
  };
  metrics.watchReadiness(probe);
  let server: Server | undefined;
  if (config.METRICS_PORT > 0) {
    server = await startOpsServer({
      port: config.METRICS_PORT,
      host: config.METRICS_HOST,
      metrics,
      logger: deps.logger,
      ready: async () => {
        const { redis, store, warnings } = await probeDependencies(deps.redis, deps.store);
        return { ok: redis && store, warnings };
      },
    });
  }
  return {
    metrics,
    close: async () => {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      await Promise.all(queues.map((q) => q.close()));
    },
  };
}
