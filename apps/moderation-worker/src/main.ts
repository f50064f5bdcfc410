import { createChatPlatform } from '@rm/platforms';
import { ReportGuard } from '@rm/report-guard';
import { createDeadlines, createLogger, installQueueHealthMetrics, loadConfig, queuePolicy, runMain, startWorkerProcess, type Logger } from '@rm/runtime';
import { createStore } from '@rm/storage';
import { moderationConfig } from './config.js';
import { decide } from './decide.js';
import { handleDeadline } from './handle-deadline.js';

let logger: Logger | undefined;

runMain('moderation-worker', async () => {
  const config = loadConfig(moderationConfig);
  const log = (logger = createLogger('moderation-worker', config.LOG_LEVEL));
  const { store, redis, notifier, ops, consume } = await startWorkerProcess('moderation-worker', config, log, () => createStore(config), ['decisions', 'deadlines']);
  const deadlines = createDeadlines(redis, config.QUEUE_PREFIX);
  const chat = createChatPlatform(config, store);
  const deps = {
    store,
    guard: new ReportGuard(redis, config.QUEUE_PREFIX),
    chat,
    notify: notifier.notify,
    deadlines,
    policy: queuePolicy(config),
    settings: { hideUsername: config.HIDE_USERNAME, reportChannel: config.REPORT_CHANNEL_ID },
  };
  const queueHealth = installQueueHealthMetrics(ops.metrics, () => store.listOpenCases());

  consume(
    'decisions',
    async (job) => {
      const result = await decide(deps, job);
      log.info({ action: job.action, reportId: job.reportId, decisionId: job.decisionId, ok: result.ok, requestId: job.requestId }, 'decision handled');
      return result;
    },
    { concurrency: config.MODERATION_CONCURRENCY, closers: [() => deadlines.close()] },
  );
  consume(
    'deadlines',
    async (job) => {
      const outcome = await handleDeadline({ ...deps, slaBreached: queueHealth.slaBreached, settings: { escalationChannel: config.ESCALATION_CHANNEL_ID } }, job);
      log.info({ ...job, outcome }, 'deadline handled');
      return outcome;
    },
    { concurrency: config.DEADLINE_CONCURRENCY },
  );
  log.info({ concurrency: config.MODERATION_CONCURRENCY, claimTtlMs: config.CLAIM_TTL, slaMs: config.SLA }, 'moderation worker running');
}, () => logger);
