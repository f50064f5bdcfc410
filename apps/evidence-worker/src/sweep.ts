import type { Queue } from 'bullmq';
import { jobIdFor, type EvidenceJob } from '@rm/contracts';
import { sweepEvidence, type BlobStore, type HashLock } from '@rm/evidence';
import type { Logger } from '@rm/runtime';
import type { EvidenceStore } from '@rm/storage';
import { evidenceRetentionMs } from '@rm/triage';
import type { EvidenceWorkerConfig } from './config.js';

const DAY_MS = 86_400_000;

/** The daily retention sweep; every evidence worker declares the same scheduler, so it runs once a day. */
export async function scheduleSweep(queue: Queue): Promise<void> {
  const job: EvidenceJob = { kind: 'sweep' };
  await queue.upsertJobScheduler(jobIdFor.evidence(job), { every: DAY_MS }, { name: job.kind, data: job, opts: { removeOnComplete: 30, removeOnFail: 30 } });
}

/** Runs one sweep and logs what it deleted (the audit holds an entry per item); retention is the policy's. */
export async function runSweep(deps: { store: EvidenceStore; blobs: BlobStore; lock: HashLock; log: Logger }, config: Pick<EvidenceWorkerConfig, 'TRIAGE_POLICY'>) {
  const result = await sweepEvidence(deps, { retentionMs: evidenceRetentionMs(config.TRIAGE_POLICY), batchSize: 500, dryRun: false });
  const summary = { items: result.items.length, blobsDeleted: result.blobsDeleted, uncitedUploads: result.uncitedUploads.length };
  deps.log.info(summary, 'evidence retention sweep');
  return summary;
}
