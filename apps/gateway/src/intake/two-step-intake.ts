import type { Queue } from 'bullmq';
import { QUEUES, jobIdFor, type IntakeReport } from '@rm/contracts';
import type { AdmitOutcome, GuardRequest, ReportGuard } from '@rm/report-guard';
import { MicroBatcher } from '@rm/runtime';
import { orUnavailable } from '../errors/unavailable.js';
import { JOB_BATCHING, queueUnavailable, type Intake } from './intake.js';

/**
 * For a Redis Cluster, where one script cannot check a whole turn: each submission is checked
 * (one script per slot), then the admitted reports of one turn go in one job.
 */
export class TwoStepIntake implements Intake {
  private readonly jobs: MicroBatcher<IntakeReport, void>;

  constructor(
    queue: Queue,
    private readonly guard: ReportGuard,
  ) {
    this.jobs = new MicroBatcher(async (reports) => {
      await queue.add(QUEUES.intake.name, { reports }, { jobId: jobIdFor.intake(reports[0]!.reportId) });
      return reports.map(() => undefined);
    }, JOB_BATCHING);
  }

  async accept(check: GuardRequest, report: IntakeReport): Promise<AdmitOutcome> {
    const admitted = await orUnavailable('Redis', () => this.guard.admit(check));
    if (!admitted.ok) return admitted;
    try {
      await this.jobs.submit(report);
    } catch (err) {
      await this.guard.release(check, admitted.appended).catch(() => undefined);
      throw queueUnavailable(err);
    }
    return admitted;
  }
}
