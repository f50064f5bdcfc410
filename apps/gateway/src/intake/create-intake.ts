import type { Queue } from 'bullmq';
import type { ReportGuard } from '@rm/report-guard';
import type { Redis } from '@rm/runtime';
import type { Intake } from './intake.js';
import { OneTripIntake } from './one-trip-intake.js';
import { TwoStepIntake } from './two-step-intake.js';

/**
 * One round trip on a standalone Redis; checks, then the job, on a Redis Cluster (see decisions.md).
 * `connection` is the one `queue` was opened on.
 */
export function createIntake(queue: Queue, connection: Redis, guard: ReportGuard): Intake {
  return guard.batches ? new OneTripIntake(queue, connection, guard) : new TwoStepIntake(queue, guard);
}
