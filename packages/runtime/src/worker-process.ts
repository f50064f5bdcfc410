import type { Worker } from 'bullmq';
import type { Logger } from 'pino';
import type { QueueKey } from '@rm/contracts';
import { createConsumer, type Handler } from './consumer.js';
import { createRedis, waitForRedis, type Redis, type RedisTarget } from './redis.js';
import { checkRedisAtStart } from './redis-check.js';
import type { ProbedStore } from './readiness.js';
import { onShutdown } from './shutdown.js';
import { tracedStore } from './traced-store.js';
import { startWorkerOps, type WorkerOps } from './worker-ops.js';
import { StoreFullLog } from './store-full-log.js';

/** What every worker opens the same way; the store is opened by the caller (runtime knows no adapter). */
export interface WorkerStore extends ProbedStore {
  close(): Promise<void>;
}

export interface WorkerProcessConfig extends RedisTarget {
  KEY_PREFIX: string;
  JOB_LOCK_MS: number;
  METRICS_PORT: number;
  METRICS_HOST: string;
}

export interface WorkerProcess<S extends WorkerStore> {
  store: S;
  redis: Redis;
  ops: WorkerOps;
  /**
   * Consumes one queue of the catalog until SIGTERM, then closes the workers (of every queue this
   * process consumes), the ops port, `closers`, Redis and the store, in that order.
   */
  consume<K extends QueueKey>(
    key: K,
    handler: Handler<K>,
    options: { concurrency: number; maxBackoffMs?: number; onFailedForGood?: Parameters<typeof createConsumer>[2]['onFailedForGood']; closers?: (() => Promise<unknown>)[] },
  ): Worker;
}

/**
 * The start-up every worker shares: the store, Redis (waited for and checked), the ops port on METRICS_PORT
 * with depth gauges of `watched` queues.
 */
export async function startWorkerProcess<S extends WorkerStore>(
  service: string,
  config: WorkerProcessConfig,
  log: Logger,
  openStore: () => Promise<S>,
  watched: QueueKey[],
): Promise<WorkerProcess<S>> {
  const store = tracedStore(await openStore());
  const redis = createRedis(config, { onError: (err) => log.warn({ err: err.message }, 'redis connection error') });
  await waitForRedis(redis);
  await checkRedisAtStart(redis, log);
  const ops = await startWorkerOps(service, config, {
    redis,
    keyPrefix: config.KEY_PREFIX,
    store,
    queues: watched,
    logger: log,
  });
  // A process may consume several queues: one shutdown closes every worker first, then the rest.
  const workers: Worker[] = [];
  // "disk full" once a minute per process, whichever of its queues met it.
  const storeFullLog = new StoreFullLog(log);
  const extraClosers: (() => Promise<unknown>)[] = [];
  return {
    store,
    redis,
    ops,
    consume(key, handler, options) {
      const worker = createConsumer(key, handler, {
        connection: redis,
        keyPrefix: config.KEY_PREFIX,
        concurrency: options.concurrency,
        logger: log,
        lockMs: config.JOB_LOCK_MS,
        metrics: ops.metrics,
        storeFullLog,
        ...(options.maxBackoffMs !== undefined && { maxBackoffMs: options.maxBackoffMs }),
        ...(options.onFailedForGood && { onFailedForGood: options.onFailedForGood }),
      });
      workers.push(worker);
      extraClosers.push(...(options.closers ?? []));
      if (workers.length === 1) {
        const closeExtras = async () => {
          for (const close of extraClosers) await close().catch((err: unknown) => log.error({ err }, 'error while shutting down'));
        };
        onShutdown(log, [() => Promise.all(workers.map((w) => w.close())), () => ops.close(), closeExtras, () => redis.quit(), () => store.close()]);
      }
      void worker.run();
      return worker;
    },
  };
}
