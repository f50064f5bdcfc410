import { QUEUES } from '@rm/contracts';
import { createChatPlatform } from '@rm/platforms';
import { ReportGuard } from '@rm/report-guard';
import { createConsumer, createLogger, createNotifier, createRedis, loadConfig, onShutdown, runMain, startWorkerOps, waitForRedis, type Logger } from '@rm/runtime';
import { createStore } from '@rm/storage';
import { moderationConfig } from './config.js';
import { decide } from './decide.js';

let logger: Logger | undefined;

runMain('moderation-worker', async () => {
  const config = loadConfig(moderationConfig);
  const log = (logger = createLogger('moderation-worker', config.LOG_LEVEL));
  const store = await createStore(config);
  const redis = createRedis(config.REDIS_URL, { onError: (err) => log.warn({ err: err.message }, 'redis connection error') });
  await waitForRedis(redis);
  const ops = await startWorkerOps('moderation-worker', config, {
    redis,
    prefix: config.QUEUE_PREFIX,
    storeProbe: () => store.getApiKey('readiness-probe'),
    queueNames: [QUEUES.decisions.name],
    logger: log,
  });
  const notifier = createNotifier(redis, config.QUEUE_PREFIX, config);
  const deps = {
    store,
    guard: new ReportGuard(redis, config.QUEUE_PREFIX),
    chat: createChatPlatform(config, store),
    notify: notifier.notify,
    settings: { hideUsername: config.HIDE_USERNAME, reportChannel: config.REPORT_CHANNEL_ID },
  };
  const worker = createConsumer(
    'decisions',
    async (job) => {
      const result = await decide(deps, job);
      log.info({ action: job.action, reportId: job.reportId, decisionId: job.decisionId, ok: result.ok, requestId: job.requestId }, 'decision handled');
      return result;
    },
    { connection: redis, prefix: config.QUEUE_PREFIX, concurrency: config.MODERATION_CONCURRENCY, logger: log, lockMs: config.JOB_LOCK_MS, metrics: ops.metrics },
  );
  onShutdown(log, [() => worker.close(), () => ops.close(), () => notifier.close(), () => redis.quit(), () => store.close()]);
  void worker.run();
  log.info({ concurrency: config.MODERATION_CONCURRENCY }, 'moderation worker running');
}, () => logger);
