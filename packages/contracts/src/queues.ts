import { z } from 'zod';
import { EVIDENCE_TYPES, PLATFORMS, REPORT_TYPES } from './http.js';
import { DecisionJob } from './decisions.js';
import { AppealDecisionJob } from './appeals.js';
import { SanctionJob, sanctionJobId } from './sanction-jobs.js';
import { DeadNotification, NotificationJob, notificationJobId } from './notifications.js';
import { DeadlineJob, deadlineJobId } from './deadlines.js';
import { EvidenceJob, evidenceJobId } from './evidence.js';

/** One accepted report, already validated by the gateway. */
export const IntakeReport = z.object({
  reportId: z.string(),
  receivedAt: z.number().int(),
  userId: z.string(),
  reporter: z.object({ id: z.string(), platform: z.enum(PLATFORMS) }),
  answers: z.array(z.object({ questionId: z.string(), answer: z.string() })),
  evidence: z.array(z.object({ url: z.string(), type: z.enum(EVIDENCE_TYPES), createEvidence: z.boolean().optional() })),
  reportType: z.enum(REPORT_TYPES).optional(),
  keyId: z.string(),
  requestId: z.string().optional(),
  /**
   * The reported user as the gateway found them in the directory: stored with the report, so
   * storing it needs no directory. Absent from jobs queued by an older gateway.
   */
  user: z.object({ name: z.string(), displayName: z.string(), avatar: z.string().nullable() }).optional(),
});
export type IntakeReport = z.infer<typeof IntakeReport>;

/**
 * Payload of a job on the intake queue: the reports one gateway took during one turn of its event
 * loop (one job, one Redis command, however many requests were in flight). Without `verdictsKey`
 * each was reserved for. With it, the job holds every report of the turn and was sent together
 * with their reservations, whose answers (verdicts) are kept under that Redis key: only the
 * reserved are to be stored. A job queued by an older gateway names that key `verdicts`: still
 * read, as `verdictsKey`, on dequeue.
 */
export const IntakeJob = z
  .object({ reports: z.array(IntakeReport).min(1), verdictsKey: z.string().optional(), verdicts: z.string().optional() })
  .transform(({ verdicts, ...job }) => (job.verdictsKey === undefined && verdicts !== undefined ? { ...job, verdictsKey: verdicts } : job));
export type IntakeJob = z.infer<typeof IntakeJob>;

/** One decision on the decisions queue: a case's or an appeal's. */
export const OneDecision = z.union([DecisionJob, AppealDecisionJob]);
export type OneDecision = z.infer<typeof OneDecision>;

/**
 * The decisions one gateway took during one turn of its event loop, as one job: one add, one
 * fetch and one finish for all of them. The job's return value is their answers, in order; each
 * answer is also published on its own as soon as it is decided. Each decision is applied on its
 * own (a refusal of one is its answer, not the others'); a job that fails is tried again whole,
 * and a decision already recorded answers again what it answered.
 */
export const DecisionBatch = z.object({ decisions: z.array(OneDecision).min(1) });
export type DecisionBatch = z.infer<typeof DecisionBatch>;

/**
 * A batch's job id, from its first decision's id: unique, and never a decision's own reply key
 * (`jobIdFor.decisions`), under which each answer is also published as soon as it is decided.
 */
export const decisionBatchJobId = (firstDecisionId: string) => `decisions-${firstDecisionId}`;

export interface QueueSpec<P extends z.ZodType> {
  readonly name: string;
  readonly payload: P;
  readonly attempts: number;
  /**
   * `exponential-jitter` is ours (runtime's consumer installs it): exponential with jitter, and
   * never sooner than a platform's `retry-after`.
   */
  readonly backoff: { readonly type: 'exponential' | 'exponential-jitter'; readonly delay: number };
}

/**
 * The typed queue catalog: producers and consumers derive names and payload types from here, and
 * every worker's handler map is keyed by these entries.
 */
export const QUEUES = {
  /**
   * Accepted reports are retried until stored: no last attempt (a payload that does not parse
   * still fails at once), the wait between attempts capped by the intake worker's INTAKE_RETRY_MAX_MS.
   */
  intake: { name: 'intake', payload: IntakeJob, attempts: Number.MAX_SAFE_INTEGER, backoff: { type: 'exponential-jitter', delay: 500 } },
  /**
   * Case decisions, and appeal decisions beside them (one writer for both: the moderation worker):
   * a gateway's in batches, the chat buttons' (and an earlier gateway's) one per job.
   */
  decisions: { name: 'decisions', payload: z.union([DecisionBatch, OneDecision]), attempts: 3, backoff: { type: 'exponential', delay: 200 } },
  /** Defaults; NOTIFY_ATTEMPTS and NOTIFY_BACKOFF_MS override them where notifications are enqueued. */
  notifications: { name: 'notifications', payload: NotificationJob, attempts: 8, backoff: { type: 'exponential-jitter', delay: 1000 } },
  /** Dead letters of the notifications queue: never consumed, listed and replayed by the CLI. */
  notificationsDead: { name: 'notifications-dead', payload: DeadNotification, attempts: 1, backoff: { type: 'exponential', delay: 0 } },
  /** Delayed jobs of queue health: claims that expire, SLAs that escalate (moderation worker). */
  deadlines: { name: 'deadlines', payload: DeadlineJob, attempts: 10, backoff: { type: 'exponential', delay: 1000 } },
  /** Sanction expiries (delayed jobs) and the outbox sweep (a repeatable job), for the moderation worker. */
  sanctions: { name: 'sanctions', payload: SanctionJob, attempts: 20, backoff: { type: 'exponential-jitter', delay: 1000 } },
  /**
   * Evidence to keep (evidence worker). A capture that cannot succeed (a refused address, too
   * large) fails at once; a timeout or a 5xx is tried again, a few times.
   */
  evidence: { name: 'evidence', payload: EvidenceJob, attempts: 3, backoff: { type: 'exponential-jitter', delay: 2000 } },
} as const satisfies Record<string, QueueSpec<z.ZodType>>;

export type QueueKey = keyof typeof QUEUES;
export type PayloadOf<K extends QueueKey> = z.infer<(typeof QUEUES)[K]['payload']>;

/** BullMQ job ids may not contain ':'; ours are derived from ids we generate, so they are stable. */
export const jobIdFor = {
  /** The id of the batch's first report: unique, and known before the job is added. */
  intake: (firstReportId: string) => firstReportId,
  decisions: (decisionId: string) => `decision-${decisionId}`,
  notifications: notificationJobId,
  /** A dead letter keeps the id of the job it holds. */
  notificationsDead: (deadJobId: string) => deadJobId,
  deadlines: deadlineJobId,
  sanctions: sanctionJobId,
  evidence: evidenceJobId,
} satisfies { [K in QueueKey]: (source: never) => string };

/**
 * The BullMQ prefix of one queue. Its hash tag keeps all of the queue's keys in one Redis Cluster
 * slot, as BullMQ's scripts need; a tag per queue lets different queues live on different nodes.
 */
export const queuePrefix = (keyPrefix: string, key: QueueKey) => `{${keyPrefix}:${QUEUES[key].name}}`;
