import type { Queue } from 'bullmq';
import { QUEUES, jobIdFor, type IntakeReport } from '@rm/contracts';
import { stamped, type GuardRequest, type ReportGuard, type ReserveOutcome, type Stamped } from '@rm/report-guard';
import { carriedTrace, MicroBatcher, withBatchSpan, type Redis } from '@rm/runtime';
import { orUnavailable } from '../errors/unavailable.js';
import { nowOrInBackground, sendUntilConfirmed } from './confirm.js';
import { JOB_BATCHING, queueUnavailable, type Intake } from './intake.js';

/**
 * For a Redis Cluster, where one script cannot check a whole turn (see create-intake.ts): each
 * submission reserves (one script per slot), then the reserved reports of one turn go in one job.
 *
 * Exact whatever fails: the reservations name the report, so they are idempotent and sent again
 * when an answer is lost, and so is the job's add (on its job id), for a while (confirm.ts). Still
 * unconfirmed, the reservations are released by the report (whatever they did), in the background
 * while Redis is out of reach, and the caller is told to retry.
 */
export class TwoStepIntake implements Intake {
  private readonly jobs: MicroBatcher<IntakeReport, void>;

  /** `connection` is the one `queue` was opened on. */
  constructor(
    queue: Queue,
    connection: Redis,
    private readonly guard: ReportGuard,
    private readonly onReleaseFailed: (err: Error, reportId: string) => void = () => undefined,
  ) {
    const send = async (reports: IntakeReport[]) => {
      // Sent again when its answer is lost (the add is idempotent on the job id): a job that landed
      // is confirmed, not released and then stored all the same.
      const jobId = jobIdFor.intake(reports[0]!.reportId);
      const {
        results: [queued],
      } = await sendUntilConfirmed(connection, () => Promise.allSettled([queue.add(QUEUES.intake.name, { reports }, { jobId })] as const));
      if (queued.status === 'rejected') throw queued.reason;
      return reports.map(() => undefined);
    };
    // Traced as the hop from the requests to the job, as in OneTripIntake.
    this.jobs = new MicroBatcher((reports) => withBatchSpan('intake enqueue', reports.map(carriedTrace), () => send(reports)), JOB_BATCHING);
  }

  async accept(check: GuardRequest, report: IntakeReport): Promise<ReserveOutcome> {
    // Stamped once and named by the report: a sending again is the same reservation.
    const request = stamped({ ...check, reportId: report.reportId });
    // Released whether or not it may have landed: per-slot reservations are released by report, cheaply.
    const {
      results: [reserved],
    } = await sendUntilConfirmed(this.guard.connection, () => Promise.allSettled([this.guard.reserve(request)] as const));
    if (reserved.status === 'rejected') {
      await this.release(request);
      return orUnavailable('Redis', () => Promise.reject(reserved.reason as Error));
    }
    if (!reserved.value.ok) return reserved.value;
    try {
      await this.jobs.submit(report);
    } catch (err) {
      await this.release(request);
      throw queueUnavailable(err);
    }
    return reserved.value;
  }

  /** Before the caller is told to retry, so a retry at once is not refused by its own reservation; in the background while Redis is out of reach. */
  private async release(request: Stamped): Promise<void> {
    await nowOrInBackground(
      () => this.guard.release(request),
      (err) => this.onReleaseFailed(err, request.reportId!),
    );
  }
}
