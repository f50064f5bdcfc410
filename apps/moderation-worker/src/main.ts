import { createNotifier } from '@rm/delivery';
import { createChatPlatform } from '@rm/platforms';
import { ReportGuard } from '@rm/report-guard';
import { createLogger, loadConfig, runMain, startWorkerProcess, type Logger } from '@rm/runtime';
import { createStore } from '@rm/storage';
import { moderationConfig } from './config.js';
import { decide } from './decide.js';

let logger: Logger | undefined;

runMain('moderation-worker', async () => {
  const config = loadConfig(moderationConfig);
  const log = (logger = createLogger('moderation-worker', config.LOG_LEVEL));
  const { store, redis, consume } = await startWorkerProcess('moderation-worker', config, log, () => createStore(config), ['decisions']);
  const notifier = createNotifier(redis, config.QUEUE_PREFIX, config);
  const deps = {
    store,
    guard: new ReportGuard(redis, config.QUEUE_PREFIX),
    chat: createChatPlatform(config, store),
    notify: notifier.notify,
    settings: { hideUsername: config.HIDE_USERNAME, reportChannel: config.REPORT_CHANNEL_ID },
  };
  consume(
    'decisions',
    async (job) => {
      const result = await decide(deps, job);
      log.info({ action: job.action, reportId: job.reportId, decisionId: job.decisionId, ok: result.ok, requestId: job.requestId }, 'decision handled');
      return result;
    },
    { concurrency: config.MODERATION_CONCURRENCY, closers: [() => notifier.close()] },
  );
  log.info({ concurrency: config.MODERATION_CONCURRENCY, closers: [() => notifier.close()] }, 'moderation worker running');
}, () => logger);
