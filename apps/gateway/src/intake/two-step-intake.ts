import type { Queue } from 'bullmq';
import { QUEUES, jobIdFor, type IntakeReport } from '@rm/contracts';
import type { ReserveOutcome, GuardRequest, ReportGuard } from '@rm/report-guard';
import { MicroBatcher } from '@rm/runtime';
import { orUnavailable } from '../use-cases/unavailable.js';
import { sendUntilConfirmed } from './confirm.js';
import { JOB_BATCHING, queueUnavailable, type Intake } from './intake.js';

/**
 * For a Redis Cluster, where one script cannot check a whole turn (see create-intake.ts): each
 * submission reserves (one script per slot), then the reserved reports of one turn go in one job.
 */
export class TwoStepIntake implements Intake {
  private readonly jobs: MicroBatcher<IntakeReport, void>;

  constructor(
    queue: Queue,
    private readonly guard: ReportGuard,
  ) {
    this.jobs = new MicroBatcher(async (reports) => {
      // Sent again when its answer is lost (the add is idempotent on the job id): a job that landed
      // is confirmed, not released and then stored all the same.
      const jobId = jobIdFor.intake(reports[0]!.reportId);
      const [queued] = await sendUntilConfirmed(() => Promise.allSettled([queue.add(QUEUES.intake.name, { reports }, { jobId })] as const));
      if (queued.status === 'rejected') throw queued.reason;
      return reports.map(() => undefined);
    }, JOB_BATCHING);
  }

  async accept(check: GuardRequest, report: IntakeReport): Promise<ReserveOutcome> {
    const reserved = await orUnavailable('Redis', () => this.guard.reserve(check));
    if (!reserved.ok) return reserved;
    try {
      await this.jobs.submit(report);
    } catch (err) {
      await this.guard.release(check, reserved.appended).catch(() => undefined);
      throw queueUnavailable(err);
    }
    return reserved;
  }
}
