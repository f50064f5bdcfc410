import { setFlagsFromString } from 'node:v8';
import { QUEUES } from '@rm/contracts';
import { createChatPlatform, createUserDirectory } from '@rm/platforms';
import { ReportGuard, SanctionStatusCache } from '@rm/report-guard';
import { checkRedisAtStart, ConfigError, createLogger, createRedis, loadConfig, Metrics, onShutdown, openNearCache, openQueue, probeDependencies, ReplyInbox, runMain, tracedStore, waitForRedis, type Logger } from '@rm/runtime';
import { createStore } from '@rm/storage-factory';
import { buildApp } from './app.js';
import { gatewayConfig } from './config.js';
import { openBlobStore, redisHashLock, tokenSecret, UploadReceipts, uploadTokens } from '@rm/evidence';
import { createIntake } from './intake/create-intake.js';
import { DecisionBatches } from './use-cases/decision-batches.js';
import { UploadGate } from './use-cases/upload-gate.js';
import { openStaffSignIn } from './staff/open-staff-sign-in.js';
import { appealLinkTokens } from './appeal-page/link-token.js';

let logger: Logger | undefined;

/**
 * V8 "pretenures" an allocation site whose objects it saw survive a young-generation collection:
 * its later objects are made in the old generation. A request's objects live for one request, but
 * whether a site looked long-lived depends on what was in flight at an early collection, so about
 * one gateway in three took that path for good and spent a quarter of its CPU collecting garbage.
 * Set here, before anything is served, so every way of starting the gateway has it (performance.md).
 */
const V8_FLAGS = '--no-allocation-site-pretenuring';

// Traced without async context: each request carries its own (http/tracing.ts).
runMain('gateway', async () => {
  setFlagsFromString(V8_FLAGS);
  const config = loadConfig(gatewayConfig);
  if (config.REDIS_MIN_REPLICAS_ACK > 0 && config.REDIS_CLUSTER_NODES) {
    // WAIT counts one connection's writes to one server; a Cluster's turn spans masters (two-step intake).
    throw new ConfigError(['REDIS_MIN_REPLICAS_ACK: is for a standalone or Sentinel-managed Redis, not a Redis Cluster (unset it, or 0)']);
  }
  logger = createLogger('gateway', config.LOG_LEVEL);
  const store = tracedStore(await createStore(config));
  const blobs = await openBlobStore(config);
  // Request-path connections fail fast while Redis is away so callers get a 500, not a hang. Our
  // own commands (limits, caches) are auto-pipelined on one; the queues have another (see createRedis),
  // and the reply inbox a third, which subscribes to its channel.
  const onError = (err: Error) => logger?.warn({ err: err.message }, 'redis connection error');
  const redis = createRedis(config, { failFast: true, autoPipelining: true, onError });
  const queueConnection = createRedis(config, { failFast: true, onError });
  await Promise.all([waitForRedis(redis), waitForRedis(queueConnection)]);
  await checkRedisAtStart(redis, logger);
  const intakeQueue = openQueue('intake', queueConnection, config.KEY_PREFIX, {
    defaultJobOptions: { attempts: QUEUES.intake.attempts, backoff: QUEUES.intake.backoff, removeOnComplete: 1000, removeOnFail: false },
  });
  const decisionsQueue = openQueue('decisions', queueConnection, config.KEY_PREFIX, {
    defaultJobOptions: { attempts: QUEUES.decisions.attempts, backoff: QUEUES.decisions.backoff, removeOnComplete: 1000, removeOnFail: 5000 },
  });
  // Queues the gateway watches (depth gauges, dashboard); workers produce to them, and the
  // sanctions API adds relay and activation jobs to the last one.
  const watchedQueues = (['notifications', 'notificationsDead', 'deadlines', 'sanctions'] as const).map((key) => openQueue(key, queueConnection, config.KEY_PREFIX));
  // Opened for erasures only (their finished jobs name the evidence a report cited).
  const evidenceQueue = openQueue('evidence', queueConnection, config.KEY_PREFIX);
  const metrics = new Metrics('gateway');
  metrics.watchQueues([intakeQueue, decisionsQueue, ...watchedQueues]);
  // Ready as /ready says: on Redis alone (the store's state reported, not required).
  metrics.watchReadiness(async () => {
    const { redis: redisUp, store: storeUp } = await probeDependencies(redis, store);
    return { ready: redisUp, redis: redisUp, store: storeUp };
  });
  const replies = new ReplyInbox(createRedis(config, { onError }), config.KEY_PREFIX, (err) => logger?.warn({ err }, 'reply inbox: could not read the decision answers'));
  await replies.ready();

  const guard = new ReportGuard(redis, config.KEY_PREFIX);
  // The ban API's answers kept here too, unless turned off or on a Cluster: two more connections,
  // one reading them, one told of their changes.
  const near =
    config.SANCTION_STATUS_MEMORY_MB > 0
      ? openNearCache(config, {
          maxBytes: config.SANCTION_STATUS_MEMORY_MB * 2 ** 20,
          ttlMs: 60_000,
          heartbeatMs: 1_000,
          onConnectionError: onError,
          onError: (err) => logger?.warn({ err }, 'ban API answers are not kept in memory until Redis tracks them again'),
        })
      : undefined;
  if (near) metrics.watchNearCache('sanction-status', near);
  const app = await buildApp({
    config,
    logger,
    store,
    redis,
    guard,
    sanctionCache: new SanctionStatusCache(redis, config.KEY_PREFIX, near),
    directory: createUserDirectory(config, { store, redis, prefix: config.KEY_PREFIX }),
    intakeQueue,
    intake: createIntake(intakeQueue, queueConnection, guard, logger, config.REDIS_MIN_REPLICAS_ACK > 0 ? { replicas: config.REDIS_MIN_REPLICAS_ACK, timeoutMs: config.REDIS_REPLICA_ACK_TIMEOUT_MS } : undefined),
    decisionsQueue,
    decisions: new DecisionBatches(decisionsQueue, replies, config.DECISION_TIMEOUT_MS),
    sanctionsQueue: watchedQueues[3]!,
    dashboardQueues: watchedQueues,
    metrics,
    staff: openStaffSignIn(config, { redis, store, logger }),
    // An erasure's reach beyond the store (docs/privacy.md): case messages, hash locks, finished jobs.
    privacy: {
      chat: { platform: createChatPlatform(config, store), hideUsername: config.HIDE_USERNAME },
      lock: redisHashLock(redis, config.KEY_PREFIX),
      // FINISHED_JOB_QUEUES (@rm/privacy), as the CLI's erasure and the retention sweep read them.
      queues: [intakeQueue, evidenceQueue, decisionsQueue, ...watchedQueues.slice(0, 2)],
      prefix: config.KEY_PREFIX,
    },
    evidence: {
      blobs,
      tokens: uploadTokens(tokenSecret(config)),
      receipts: new UploadReceipts(redis, config.KEY_PREFIX),
      gate: new UploadGate({ inFlight: config.EVIDENCE_UPLOADS_IN_FLIGHT, perAddressPerMinute: config.EVIDENCE_UPLOADS_PER_MINUTE }),
      publicBaseUrl: config.PUBLIC_BASE_URL,
      maxBytes: config.EVIDENCE_MAX_BYTES,
      uploadTtlS: config.EVIDENCE_UPLOAD_TTL_S,
    },
    appealPage: {
      tokens: config.APPEAL_LINK_SECRET === undefined ? null : appealLinkTokens(config.APPEAL_LINK_SECRET),
      ttlMs: config.APPEAL_LINK_TTL,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      submitsPerMinute: config.APPEAL_PAGE_SUBMITS_PER_MINUTE,
      requestsPerMinute: config.APPEAL_PAGE_REQUESTS_PER_MINUTE,
    },
  });
  onShutdown(logger, [
    () => app.close(),
    () => replies.close(),
    () => intakeQueue.close(),
    () => decisionsQueue.close(),
    () => evidenceQueue.close(),
    ...watchedQueues.map((q) => () => q.close()),
    () => near?.close(),
    () => redis.quit(),
    () => queueConnection.quit(),
    () => store.close(),
    () => blobs.close(),
  ]);
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  logger.info({ address }, 'gateway listening');
}, () => logger, { asyncContext: false });
