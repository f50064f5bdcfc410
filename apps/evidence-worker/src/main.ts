import type { Job } from 'bullmq';
import { QUEUES } from '@rm/contracts';
import { dnsResolver, guardedFetch, keepItems, openBlobStore, parseAllowList, recordKeepFailure, redisHashLock, tokenSecret, UploadReceipts, uploadTokens } from '@rm/evidence';
import { createChatPlatform } from '@rm/platforms';
import { FINISHED_JOB_QUEUES } from '@rm/privacy';
import { createLogger, loadConfig, openQueue, runMain, startWorkerProcess, type Logger } from '@rm/runtime';
import { createStore } from '@rm/storage-factory';
import { evidenceWorkerConfig } from './config.js';
import { runRetentionSweep, scheduleRetention } from './retention.js';
import { runSweep, scheduleSweep } from './sweep.js';

let logger: Logger | undefined;

runMain('evidence-worker', async () => {
  const config = loadConfig(evidenceWorkerConfig);
  const log = (logger = createLogger('evidence-worker', config.LOG_LEVEL));
  const allow = parseAllowList(config.EVIDENCE_FETCH_ALLOW);
  if (allow.size > 0) log.warn({ allow: [...allow] }, 'EVIDENCE_FETCH_ALLOW is set: these hosts are fetched although they are not public. For tests only, never in production.');
  const blobs = await openBlobStore(config);
  const { store, redis, consume } = await startWorkerProcess('evidence-worker', config, log, () => createStore(config), ['evidence']);
  const limits = { maxBytes: config.EVIDENCE_MAX_BYTES, timeoutMs: config.EVIDENCE_FETCH_TIMEOUT_MS, maxRedirects: 3 };
  const fetcher = { resolve: dnsResolver(), allow, refused: config.EVIDENCE_REFUSED_PREFIXES };
  const lock = redisHashLock(redis, config.KEY_PREFIX);
  const receipts = new UploadReceipts(redis, config.KEY_PREFIX);
  const deps = {
    store,
    blobs,
    fetch: (url: string) => guardedFetch(url, limits, fetcher),
    tokens: uploadTokens(tokenSecret(config)),
    maxBytes: config.EVIDENCE_MAX_BYTES,
    lock,
    uploadHash: (uploadId: string) => receipts.sha256Of(uploadId),
  };
  const queue = openQueue('evidence', redis, config.KEY_PREFIX);
  await scheduleSweep(queue);
  await scheduleRetention(queue);
  // The retention sweep removes finished jobs naming what it erased (an intake job holds whole reports).
  const finished = FINISHED_JOB_QUEUES.map((key) => (key === 'evidence' ? queue : openQueue(key, redis, config.KEY_PREFIX)));
  const retention = { store, blobs, lock, chat: createChatPlatform(config, store), queues: finished, log };
  const lastAttempt = (job: Job) => job.attemptsMade + 1 >= (job.opts.attempts ?? QUEUES.evidence.attempts);

  consume(
    'evidence',
    async (payload, job) => {
      if (payload.kind === 'sweep') return runSweep({ store, blobs, lock, log }, config);
      if (payload.kind === 'retention') return runRetentionSweep(retention, config.TRIAGE_POLICY);
      const kept = await keepItems(deps, payload.items, lastAttempt(job));
      for (const item of kept) log.info({ reportId: item.reportId, index: item.index, state: item.state, failure: item.failure, sha256: item.sha256 }, 'evidence settled');
      return kept.map((item) => ({ reportId: item.reportId, index: item.index, state: item.state, failure: item.failure }));
    },
    {
      concurrency: config.EVIDENCE_CONCURRENCY,
      // A capture that failed for good on an error of ours is recorded, so it does not stay pending for ever.
      onFailedForGood: async (job, err) => {
        const parsed = QUEUES.evidence.payload.safeParse(job.data);
        if (parsed.success && parsed.data.kind === 'capture') for (const item of parsed.data.items) await recordKeepFailure(store, item, err);
      },
      closers: [...finished.map((q) => () => q.close()), () => blobs.close()],
    },
  );
  log.info({ concurrency: config.EVIDENCE_CONCURRENCY, store: blobs.kind }, 'evidence worker running');
}, () => logger);
