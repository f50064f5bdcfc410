import { createNotifier } from '@rm/delivery';
import { createUserDirectory } from '@rm/platforms';
import { ReportGuard } from '@rm/report-guard';
import { withSpan, createDeadlines, createLogger, loadConfig, MicroBatcher, openQueue, runMain, startWorkerProcess, type Logger } from '@rm/runtime';
import type { NewReport } from '@rm/storage';
import { createStore } from '@rm/storage-factory';
import { intakeConfig } from './config.js';
import { storeReports } from './store-report.js';
import { slaStarter } from './start-sla.js';
import { captureQueuer } from './queue-evidence.js';

let logger: Logger | undefined;

runMain('intake-worker', async () => {
  const config = loadConfig(intakeConfig);
  const log = (logger = createLogger('intake-worker', config.LOG_LEVEL));
  const { store, redis, consume } = await startWorkerProcess('intake-worker', config, log, () => createStore(config), ['intake']);
  const notifier = createNotifier(redis, config.KEY_PREFIX, config);
  // Reports of the jobs running at once are written in one transaction.
  const saver = new MicroBatcher((reports: NewReport[]) =>
    withSpan('intake save batch', { attributes: { 'rm.report_ids': reports.map((r) => r.id) } }, () => store.saveReports(reports)),
  );
  const deadlines = createDeadlines(redis, config.KEY_PREFIX);
  const evidenceQueue = openQueue('evidence', redis, config.KEY_PREFIX);
  const queueCaptures = captureQueuer(evidenceQueue);
  const deps = {
    saveReport: (report: NewReport) => saver.submit(report),
    directory: createUserDirectory(config, { store, redis, prefix: config.KEY_PREFIX }),
    guard: new ReportGuard(redis, config.KEY_PREFIX),
    notify: notifier.notify,
    startSla: slaStarter(deadlines, config.TRIAGE_POLICY),
    log,
  };

  consume(
    'intake',
    async (job) => {
      const saved = await withSpan('intake store', { attributes: { 'rm.report_ids': job.reports.map((r) => r.reportId) } }, () => storeReports(deps, job));
      // After the commit: a capture never holds a report back, and a lost one is queued again by the redelivered job.
      await queueCaptures(job, saved);
      // Refused reports of the job were not stored, so `saved` is not aligned with job.reports.
      const requestIds = new Map(job.reports.map((r) => [r.reportId, r.requestId]));
      saved.forEach((s) => log.info({ reportId: s.reportId, caseId: s.caseId, created: s.created, requestId: requestIds.get(s.reportId) }, 'report stored'));
      return saved;
    },
    { concurrency: config.INTAKE_CONCURRENCY, maxBackoffMs: config.INTAKE_RETRY_MAX_MS, closers: [() => deadlines.close(), () => notifier.close(), () => evidenceQueue.close()] },
  );
  log.info({ concurrency: config.INTAKE_CONCURRENCY, closers: [() => notifier.close()] }, 'intake worker running');
}, () => logger);
