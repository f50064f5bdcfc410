import type { Queue } from 'bullmq';
import { jobIdFor, type EvidenceJob } from '@rm/contracts';
import type { BlobStore, HashLock } from '@rm/evidence';
import type { ChatPlatform } from '@rm/platforms';
import { sweepRetention, type FinishedJobsQueue } from '@rm/privacy';
import type { Logger } from '@rm/runtime';
import type { PrivacyStore } from '@rm/storage';
import { retentionMsOf, type TriagePolicy } from '@rm/triage';

const DAY_MS = 86_400_000;

/** Who the privacy audit names as the actor of the daily sweep. */
const ACTOR = 'retention-sweep';

/** The daily retention sweep of personal data; every evidence worker declares the same scheduler, so it runs once a day. */
export async function scheduleRetention(queue: Queue): Promise<void> {
  const job: EvidenceJob = { kind: 'retention' };
  await queue.upsertJobScheduler(jobIdFor.evidence(job), { every: DAY_MS }, { name: job.kind, data: job, opts: { removeOnComplete: 30, removeOnFail: 30 } });
}

export interface RetentionJobDeps {
  store: Pick<PrivacyStore, 'sweepRetention' | 'recordPrivacyAudit'>;
  blobs: BlobStore;
  lock: HashLock;
  chat: Pick<ChatPlatform, 'edit'>;
  queues: FinishedJobsQueue[];
  log: Logger;
}

/**
 * Runs one retention sweep with the policy's durations (docs/privacy.md#retention) and logs the
 * counts (the privacy audit has its entry). Counts only: never an id, a name or a text.
 */
export async function runRetentionSweep(deps: RetentionJobDeps, policy: TriagePolicy) {
  const answer = await sweepRetention(deps, {
    retentionMs: retentionMsOf(policy),
    keep: { categoryQuestionId: policy.category.questionId, categories: Object.keys(policy.categories) },
    dryRun: false,
    actor: ACTOR,
  });
  const summary = {
    requestId: answer.requestId,
    erased: Object.fromEntries(Object.entries(answer.kinds).map(([kind, k]) => [kind, k.erased])),
    kept: Object.fromEntries(Object.entries(answer.kinds).map(([kind, k]) => [kind, Object.values(k.kept).reduce((a, b) => a + b, 0)])),
    evidenceFiles: answer.evidenceFiles,
    chatMessages: answer.chatMessages,
    queueJobs: answer.queueJobs,
  };
  deps.log.info(summary, 'retention sweep');
  return summary;
}
