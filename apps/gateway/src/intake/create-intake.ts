import type { Queue } from 'bullmq';
import type { ReportGuard } from '@rm/report-guard';
import type { Logger, Redis } from '@rm/runtime';
import type { Intake } from './intake.js';
import { OneTripIntake } from './one-trip-intake.js';
import type { ReplicaAck } from './replica-ack.js';
import { TwoStepIntake } from './two-step-intake.js';

/**
 * Why two intake paths. Every write to a Redis with `appendfsync always` waits for an fsync, and
 * "check, then send the job" waits for two in a row. On a standalone Redis one script reserves for
 * a whole turn of submissions and the job follows it on the same connection without waiting for
 * its answer (Redis runs one connection's commands in order): one round trip (OneTripIntake). On a
 * Redis Cluster that script would span slots, and a job cannot share a connection's order with
 * per-slot scripts, so each submission reserves first (one script per slot), then the reserved go
 * in one job per turn: two steps (TwoStepIntake). See decisions.md (Redis).
 *
 * `connection` is the one `queue` was opened on. `replicaAck` (REDIS_MIN_REPLICAS_ACK) is for a
 * standalone or Sentinel-managed Redis; the gateway refuses it with a Cluster at start.
 */
export function createIntake(queue: Queue, connection: Redis, guard: ReportGuard, log?: Pick<Logger, 'error'>, replicaAck?: ReplicaAck): Intake {
  const onAbandonFailed = (err: Error, verdictsKey: string) =>
    log?.error({ err: err.message, verdictsKey }, 'could not abandon an unconfirmed intake job: its reservations stay until the day ends or the case closes');
  const onReleaseFailed = (err: Error, reportId: string) =>
    log?.error({ err: err.message, reportId }, 'could not release the reservations of an unconfirmed report: they stay until the day ends or the case closes');
  return guard.batches ? new OneTripIntake(queue, connection, guard, onAbandonFailed, replicaAck) : new TwoStepIntake(queue, connection, guard, onReleaseFailed);
}
