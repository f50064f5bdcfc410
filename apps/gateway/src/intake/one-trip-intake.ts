import type { Queue } from 'bullmq';
import { QUEUES, jobIdFor, type IntakeReport } from '@rm/contracts';
import { stamped, type GuardRequest, type ReportGuard, type ReserveOutcome, type Stamped } from '@rm/report-guard';
import { carriedTrace, MicroBatcher, withBatchSpan, type Redis } from '@rm/runtime';
import { nowOrInBackground, sendUntilConfirmed } from './confirm.js';
import { JOB_BATCHING, queueUnavailable, type Intake } from './intake.js';
import { replicasMissing, type ReplicaAck } from './replica-ack.js';

type Submission = { check: Stamped; report: IntakeReport };

/**
 * For a standalone Redis: the reservations of one turn's submissions and the job holding all their
 * reports leave together, one behind the other on the queue's connection, and are answered
 * together (see create-intake.ts). The job names the key where the reservations left their
 * answers (its verdicts), and the intake worker stores only the reserved reports.
 *
 * Exact whatever fails: when either answer is lost (connection reset, Redis restart, command
 * timeout), the pair is sent again for a while (confirm.ts): the reservations are idempotent on the
 * verdicts key and the job on its id, so the second sending reserves and queues nothing twice,
 * and the callers get the answers of the first. Still unconfirmed, the turn is abandoned: what it
 * reserved is released and a job that lands later stores nothing (or, if a worker already took
 * the job, the callers get its answers). So is a turn whose job too few replicas confirmed
 * (REDIS_MIN_REPLICAS_ACK, replica-ack.ts).
 */
export class OneTripIntake implements Intake {
  private readonly batcher: MicroBatcher<Submission, ReserveOutcome | Error>;

  /** `connection` is the one `queue` was opened on (BullMQ wraps, not copies, the client it is given). */
  constructor(
    private readonly queue: Queue,
    private readonly connection: Redis,
    private readonly guard: ReportGuard,
    private readonly onAbandonFailed: (err: Error, verdictsKey: string) => void = () => undefined,
    /** REDIS_MIN_REPLICAS_ACK: a turn is answered only once this many replicas hold its job. */
    private readonly replicaAck?: ReplicaAck,
  ) {
    // Traced as the hop from the requests to the job (the reservations' Redis call is its child).
    this.batcher = new MicroBatcher((batch) => withBatchSpan('intake enqueue', batch.map((s) => carriedTrace(s.report)), () => this.send(batch)), JOB_BATCHING);
  }

  async accept(check: GuardRequest, report: IntakeReport): Promise<ReserveOutcome> {
    // Stamped once: a sending again names the same minute and day.
    const outcome = await this.batcher.submit({ check: stamped(check), report });
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }

  private async send(batch: Submission[]): Promise<(ReserveOutcome | Error)[]> {
    const jobId = jobIdFor.intake(batch[0]!.report.reportId);
    const verdictsKey = this.guard.verdictsKey(jobId);
    const checks = batch.map((s) => s.check);
    const job = { reports: batch.map((s) => s.report), verdictsKey };
    // The reservations go first, on the connection the job goes on: one connection's commands run in order.
    const {
      results: [reserved, queued],
      mayHaveLanded,
    } = await sendUntilConfirmed(this.connection, () =>
      Promise.allSettled([this.guard.reserveRecorded(this.connection, checks, verdictsKey), this.queue.add(QUEUES.intake.name, job, { jobId })] as const),
    );
    const failure =
      reserved.status === 'fulfilled' && queued.status === 'fulfilled'
        ? this.replicaAck && (await replicasMissing(this.connection, this.replicaAck))
        : queueUnavailable(queued.status === 'rejected' ? queued.reason : (reserved as PromiseRejectedResult).reason);
    if (!failure) return (reserved as PromiseFulfilledResult<ReserveOutcome[]>).value;
    // Nothing left this process (Redis was down throughout): nothing to abandon. Skipping it keeps
    // a Redis outage from piling up background abandons that would all hit Redis as it returns.
    if (!mayHaveLanded) return batch.map(() => failure);
    const taken = await this.abandon(checks, verdictsKey);
    if (taken) return taken;
    // Abandoned (or to be): the reserved are told to try again, the refused get their refusal.
    return batch.map((_, i) => (reserved.status === 'fulfilled' && !reserved.value[i]!.ok ? reserved.value[i]! : failure));
  }

  /** The taken job's outcomes, or null: abandoned now, or tried again in the background until it is. */
  private async abandon(checks: Stamped[], verdictsKey: string): Promise<ReserveOutcome[] | null> {
    const taken = await nowOrInBackground(
      () => this.guard.abandonRecorded(this.connection, checks, verdictsKey),
      (err) => this.onAbandonFailed(err, verdictsKey),
    );
    return taken ?? null;
  }
}
