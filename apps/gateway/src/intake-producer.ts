import type { Queue } from 'bullmq';
import { QUEUES, jobIdFor, type IntakeReport } from '@rm/contracts';
import { MicroBatcher } from '@rm/runtime';

/** Reports per intake job at most: a report body may reach 64 KiB, a job stays a few MB. */
const MAX_REPORTS_PER_JOB = 100;

/**
 * Puts accepted reports on the intake queue, those of one event-loop turn together in one job:
 * one Redis command however many submits are in flight, and one job for the worker to store. Each
 * caller's promise settles only once that job is in Redis, so a 200 still means "in Redis".
 */
export class IntakeProducer {
  private readonly batcher: MicroBatcher<IntakeReport, void>;

  constructor(queue: Queue) {
    this.batcher = new MicroBatcher(async (reports) => {
      await queue.add(QUEUES.intake.name, { reports }, { jobId: jobIdFor.intake(reports[0]!.reportId) });
      return reports.map(() => undefined);
    }, MAX_REPORTS_PER_JOB);
  }

  add(report: IntakeReport): Promise<void> {
    return this.batcher.submit(report);
  }
}
