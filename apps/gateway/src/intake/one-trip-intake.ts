import type { Queue } from 'bullmq';
import { QUEUES, jobIdFor, type IntakeReport } from '@rm/contracts';
import type { AdmitOutcome, GuardRequest, ReportGuard } from '@rm/report-guard';
import { MicroBatcher, type Redis } from '@rm/runtime';
import { orUnavailable } from '../errors/unavailable.js';
import { JOB_BATCHING, queueUnavailable, type Intake } from './intake.js';

type Submission = { check: GuardRequest; report: IntakeReport };

/**
 * For a standalone Redis: the checks of one turn's submissions and the job holding all their
 * reports leave together, one behind the other on the queue's connection, and are answered
 * together: one round trip and one AOF fsync instead of two in a row. The job names the key where
 * the checks left their answers, and the intake worker stores only the admitted reports.
 */
export class OneTripIntake implements Intake {
  private readonly batcher: MicroBatcher<Submission, AdmitOutcome | Error>;

  /** `connection` is the one `queue` was opened on (BullMQ wraps, not copies, the client it is given). */
  constructor(
    private readonly queue: Queue,
    private readonly connection: Redis,
    private readonly guard: ReportGuard,
  ) {
    this.batcher = new MicroBatcher((batch) => this.send(batch), JOB_BATCHING);
  }

  async accept(check: GuardRequest, report: IntakeReport): Promise<AdmitOutcome> {
    const outcome = await this.batcher.submit({ check, report });
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }

  private async send(batch: Submission[]): Promise<(AdmitOutcome | Error)[]> {
    const jobId = jobIdFor.intake(batch[0]!.report.reportId);
    const verdicts = this.guard.verdictKey(jobId);
    // The checks go first, on the connection the job goes on: one connection's commands run in order.
    const [checked, queued] = await Promise.allSettled([
      orUnavailable('Redis', () => this.guard.admitRecorded(this.connection, batch.map((s) => s.check), verdicts)),
      this.queue.add(QUEUES.intake.name, { reports: batch.map((s) => s.report), verdicts }, { jobId }),
    ]);
    // Without recorded answers, a job that did get stored stores nothing.
    if (checked.status === 'rejected') return batch.map(() => checked.reason as Error);
    const outcomes = checked.value;
    if (queued.status === 'fulfilled') return outcomes;
    // No job: give back what the admitted reserved, and tell them to try again.
    await Promise.all([
      ...batch.map((s, i) => {
        const o = outcomes[i]!;
        return o.ok && this.guard.release(s.check, o.appended);
      }),
      this.guard.forgetVerdicts(verdicts),
    ]).catch(() => undefined);
    return outcomes.map((o) => (o.ok ? queueUnavailable(queued.reason) : o));
  }
}
