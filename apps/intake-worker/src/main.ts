import { QUEUES } from '@rm/contracts';
import { createUserDirectory } from '@rm/platforms';
import { ReportGuard } from '@rm/report-guard';
import { createConsumer, createLogger, MicroBatcher, createNotifier, createRedis, loadConfig, onShutdown, runMain, startWorkerOps, waitForRedis, type Logger } from '@rm/runtime';
import { createStore, type NewReport } from '@rm/storage';
import { intakeConfig } from './config.js';
import { storeReport } from './store-report.js';

let logger: Logger | undefined;

runMain('intake-worker', async () => {
  const config = loadConfig(intakeConfig);
  const log = (logger = createLogger('intake-worker', config.LOG_LEVEL));
  const store = await createStore(config);
  const redis = createRedis(config.REDIS_URL, { onError: (err) => log.warn({ err: err.message }, 'redis connection error') });
  await waitForRedis(redis);
  const ops = await startWorkerOps('intake-worker', config, {
    redis,
    prefix: config.QUEUE_PREFIX,
    storeProbe: () => store.getApiKey('readiness-probe'),
    queueNames: [QUEUES.intake.name],
    logger: log,
  });
  const notifier = createNotifier(redis, config.QUEUE_PREFIX, config);
  // Reports of the jobs running at once are written in one transaction.
  const saver = new MicroBatcher((reports: NewReport[]) => store.saveReports(reports));
  const deps = {
    saveReport: (report: NewReport) => saver.submit(report),
    directory: createUserDirectory(config, { store, redis, prefix: config.QUEUE_PREFIX }),
    guard: new ReportGuard(redis, config.QUEUE_PREFIX),
    notify: notifier.notify,
  };

  const worker = createConsumer(
    'intake',
    async (job) => {
      const saved = await storeReport(deps, job);
      log.info({ reportId: saved.reportId, caseId: saved.caseId, created: saved.created, requestId: job.requestId }, 'report stored');
      return saved;
    },
    { connection: redis, prefix: config.QUEUE_PREFIX, concurrency: config.INTAKE_CONCURRENCY, logger: log, lockMs: config.JOB_LOCK_MS, metrics: ops.metrics },
  );
  onShutdown(log, [() => worker.close(), () => ops.close(), () => notifier.close(), () => redis.quit(), () => store.close()]);
  void worker.run();
  log.info({ concurrency: config.INTAKE_CONCURRENCY }, 'intake worker running');
}, () => logger);
