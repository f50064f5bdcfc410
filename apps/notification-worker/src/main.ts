import { UnrecoverableError } from 'bullmq';
import { createChatPlatform, createDecisionWebhook, PlatformError } from '@rm/platforms';
import { CaseSyncMarks, createNotifier, DeadLetters, WebhookFlag } from '@rm/delivery';
import { QUEUES, jobIdFor } from '@rm/contracts';
import { createLogger, loadConfig, openQueue, runMain, startWorkerProcess, withLock, type Logger } from '@rm/runtime';
import { createStore } from '@rm/storage-factory';
import { notificationConfig } from './config.js';
import { notificationHandlers } from './handlers.js';

let logger: Logger | undefined;

runMain('notification-worker', async () => {
  const config = loadConfig(notificationConfig);
  const log = (logger = createLogger('notification-worker', config.LOG_LEVEL));
  const { store, redis, consume } = await startWorkerProcess('notification-worker', config, log, () => createStore(config), [
    'notifications',
    'notificationsDead',
  ]);
  const notifier = createNotifier(redis, config.KEY_PREFIX, config);
  const deadLetters = new DeadLetters(redis, config.KEY_PREFIX);
  // Automatic sanctions of the triage rules are decisions: the moderation worker applies them.
  const decisionsQueue = openQueue('decisions', redis, config.KEY_PREFIX, {
    defaultJobOptions: { attempts: QUEUES.decisions.attempts, backoff: QUEUES.decisions.backoff, removeOnComplete: 1000, removeOnFail: 5000 },
  });
  // Held across at most an edit and a post, each bounded by the platform timeout and short 429 waits.
  const lock = { ttlMs: 15 * config.PLATFORM_TIMEOUT_MS, waitMs: 3 * config.PLATFORM_TIMEOUT_MS };
  const webhook = createDecisionWebhook(config, store);
  // Decisions queue webhook jobs only once a worker with a webhook has said so (WebhookFlag).
  if (webhook) await new WebhookFlag(redis, config.KEY_PREFIX).announce();
  const handle = notificationHandlers({
    store,
    chat: createChatPlatform(config, store),
    webhook,
    notify: notifier.notify,
    syncMarks: new CaseSyncMarks(redis, config.KEY_PREFIX),
    lockCase: (caseId, fn) => withLock(redis, `${config.KEY_PREFIX}:lock:case-message:${caseId}`, lock, fn),
    settings: { reportChannel: config.REPORT_CHANNEL_ID, hideUsername: config.HIDE_USERNAME },
    triage: {
      policy: config.TRIAGE_POLICY,
      escalationChannel: config.ESCALATION_CHANNEL_ID,
      decide: async (job) => {
        await decisionsQueue.add(QUEUES.decisions.name, job, { jobId: jobIdFor.decisions(job.decisionId) });
      },
    },
  });

  consume(
    'notifications',
    async (job, bullJob) => {
      try {
        const result = await handle(job, String(bullJob.id));
        log.info({ kind: job.kind, jobId: bullJob.id, requestId: job.requestId }, 'notification delivered');
        return result;
      } catch (err) {
        // A 4xx will not pass by retrying: straight to the dead-letter queue for an operator.
        if (err instanceof PlatformError && !err.retryable) throw new UnrecoverableError(err.message);
        throw err;
      }
    },
    {
      concurrency: config.NOTIFY_CONCURRENCY,
      onFailedForGood: (job, err) => deadLetters.bury(job, err),
      closers: [() => notifier.close(), () => deadLetters.close(), () => decisionsQueue.close()],
    },
  );
  log.info({ concurrency: config.NOTIFY_CONCURRENCY, chat: config.CHAT_API_URL ? 'http' : 'embedded', webhook: Boolean(config.DECISION_WEBHOOK_URL) }, 'notification worker running');
}, () => logger);
