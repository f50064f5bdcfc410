import { withSpan, createLogger, createRedis, loadConfig, createDeadlines, openQueue, runMain, sendReply, startWorkerProcess, type Logger } from '@rm/runtime';
import { createNotifier, EffectRelay, effectHandlers, WebhookFlag } from '@rm/delivery';
import { createChatPlatform, markSuperseded } from '@rm/platforms';
import { jobIdFor, type OneDecision } from '@rm/contracts';
import { ReportGuard, UserStateSync } from '@rm/report-guard';
import { createStore } from '@rm/storage-factory';
import { appealSettingsOf, queueSettingsOf } from '@rm/triage';
import { moderationConfig } from './config.js';
import { decide } from './decide.js';
import { decideAll } from './decide-all.js';
import { decideAppeal } from './decide-appeal.js';
import { GuardRebuild, REBUILD_CHECK_MS } from './guard-rebuild.js';
import { handleDeadline } from './handle-deadline.js';
import { scheduleUnlessMoot } from './schedule-deadlines.js';
import { installQueueHealthMetrics } from './queue-health-metrics.js';
import { handleSanctionJob, scheduleExpiry, scheduleSweep } from './sanction-jobs.js';

let logger: Logger | undefined;

runMain('moderation-worker', async () => {
  const config = loadConfig(moderationConfig);
  const log = (logger = createLogger('moderation-worker', config.LOG_LEVEL));
  const { store, redis, ops, consume } = await startWorkerProcess('moderation-worker', config, log, () => createStore(config), ['decisions', 'sanctions', 'deadlines']);
  const notifier = createNotifier(redis, config.KEY_PREFIX, config);
  const sanctionsQueue = openQueue('sanctions', redis, config.KEY_PREFIX);
  const deadlines = createDeadlines(redis, config.KEY_PREFIX);
  const userSync = new UserStateSync(redis, config.KEY_PREFIX);
  const webhookFlag = new WebhookFlag(redis, config.KEY_PREFIX);
  // Its own connection: a subscriber runs nothing else.
  const announcements = createRedis(config, { onError: (err) => log.warn({ err: err.message }, 'redis connection error (webhook announcements)') });
  webhookFlag.watch(announcements, (err) => log.warn({ err }, 'could not watch for a decision webhook; asking Redis per decision meanwhile'));
  const chat = createChatPlatform(config, store);
  const relay = new EffectRelay({
    store,
    handlers: effectHandlers({
      store,
      userSync,
      notify: notifier.notify,
      webhookConfigured: () => webhookFlag.configured(),
      scheduleExpiry: (sanctionId, expiresAt) => scheduleExpiry(sanctionsQueue, sanctionId, expiresAt),
      scheduleDeadline: (job, dueAt) => scheduleUnlessMoot(store, deadlines, job, dueAt),
      markSuperseded: (caseId, previous) => markSuperseded(chat, store, caseId, previous),
    }),
    onError: (err, effect) => log.warn({ err, effectId: effect.id, kind: effect.kind }, 'effect failed; it stays pending for the sweep'),
  });
  const deps = {
    store,
    chat,
    relay,
    deadlines,
    policy: queueSettingsOf(config.TRIAGE_POLICY),
    triagePolicy: config.TRIAGE_POLICY,
    settings: { hideUsername: config.HIDE_USERNAME, reportChannel: config.REPORT_CHANNEL_ID },
  };
  const queueHealth = installQueueHealthMetrics(ops.metrics, store, Object.keys(config.TRIAGE_POLICY.categories));
  await scheduleSweep(sanctionsQueue);
  // Ban flags back from storage whenever Redis lost them (at start, then checked every second).
  const rebuild = new GuardRebuild({ store, redis, prefix: config.KEY_PREFIX, userSync, guard: new ReportGuard(redis, config.KEY_PREFIX), afterRebuild: () => scheduleSweep(sanctionsQueue) });
  if (await rebuild.ensure()) log.info('ban flags and open-case marks rebuilt from storage');
  const rebuildTimer = setInterval(() => {
    rebuild.ensure().then(
      (rebuilt) => rebuilt && log.warn('Redis had lost its derived state: ban flags and open-case marks rebuilt from storage'),
      (err: unknown) => log.warn({ err }, 'could not check or rebuild the ban flags in Redis'),
    );
  }, REBUILD_CHECK_MS);
  rebuildTimer.unref();

  const decideOne = async (job: OneDecision): Promise<unknown> => {
    if ('appealId' in job) {
      const result = await decideAppeal({ ...deps, appeals: { claimTtlMs: deps.policy.claimTtlMs, systemModeratorId: config.TRIAGE_POLICY.systemModeratorId } }, job);
      log.info({ action: job.action, appealId: job.appealId, decisionId: job.decisionId, ok: result.ok, requestId: job.requestId }, 'appeal decision handled');
      return result;
    }
    const result = await decide(deps, job);
    log.info({ action: job.action, reportId: job.reportId, decisionId: job.decisionId, ok: result.ok, requestId: job.requestId }, 'decision handled');
    return result;
  };
  // A gateway's batch: each answer goes to the waiting gateway as soon as it is decided; the job's (all of them) follows.
  const answerNow = (data: unknown) => (decision: OneDecision, value: unknown) => {
    sendReply(redis, config.KEY_PREFIX, data, { ok: true, jobId: jobIdFor.decisions(decision.decisionId), value }).catch((err: unknown) =>
      log.warn({ err, decisionId: decision.decisionId }, "could not publish a decision's answer; its gateway has it with its job's"),
    );
  };
  consume(
    'decisions',
    async (job, raw) => {
      // Each decision continues the trace of the request that asked for it (carried in the raw job).
      const traces = new Map(((raw.data as { decisions?: { decisionId?: string; trace?: string }[] }).decisions ?? []).map((d) => [d.decisionId, d.trace]));
      const traced = (d: OneDecision) =>
        withSpan(
          `decision ${d.action}`,
          { parent: traces.get(d.decisionId), attributes: { 'rm.decision_id': d.decisionId, ...('appealId' in d ? { 'rm.appeal_id': d.appealId } : { 'rm.report_id': d.reportId }) } },
          () => decideOne(d),
        );
      return 'decisions' in job ? decideAll(job.decisions, traced, answerNow(raw.data)) : traced(job);
    },
    {
      concurrency: config.MODERATION_CONCURRENCY,
      // The effects still being carried out after their answers, before the queues they use close.
      closers: [() => relay.idle(), async () => clearInterval(rebuildTimer), async () => announcements.disconnect(), () => sanctionsQueue.close(), () => deadlines.close(), () => notifier.close()],
    },
  );
  consume(
    'deadlines',
    async (job) => {
      const outcome = await handleDeadline(
        { ...deps, slaBreached: queueHealth.slaBreached, settings: { ...deps.settings, escalationChannel: config.ESCALATION_CHANNEL_ID }, appealSlaMs: appealSettingsOf(config.TRIAGE_POLICY).slaMs },
        job,
      );
      log.info({ ...job, outcome }, 'deadline handled');
      return outcome;
    },
    { concurrency: config.DEADLINE_CONCURRENCY },
  );
  consume('sanctions', handleSanctionJob({ store, relay }), { concurrency: 2 });
  log.info({ concurrency: config.MODERATION_CONCURRENCY, claimTtlMs: deps.policy.claimTtlMs }, 'moderation worker running');
}, () => logger);
