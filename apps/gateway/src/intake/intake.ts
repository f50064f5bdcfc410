import type { AppError, IntakeReport } from '@rm/contracts';
import type { ReserveOutcome, GuardRequest } from '@rm/report-guard';
import type { MicroBatcherOptions } from '@rm/runtime';
import { unavailable } from '../errors/unavailable.js';

/**
 * How a gateway groups reports into intake jobs: those of one event-loop turn, at most 100 (a
 * report body may reach 64 KiB, a job stays a few MB), and at most four jobs on their way to Redis
 * at once; reports arriving meanwhile wait for one of them and leave together. Under load jobs then
 * grow (~10 reports instead of ~8 at 50 connections here), and the intake worker, whose cost is
 * largely per job, drains faster. Fewer in flight make larger jobs still (~15 at two) but keep the
 * gateway waiting: submits at 2 / 3 / 4 in flight, A/B: 8,545-8,583 / 8,792-8,806 / 8,980-9,141
 * req/s, and 4 matched no limit at all.
 */
export const JOB_BATCHING: MicroBatcherOptions = { maxBatch: 100, maxInFlight: 4 };

/**
 * Takes submissions onto the intake queue, those of one event-loop turn in one job: one job for
 * the worker to store however many requests were in flight.
 */
export interface Intake {
  /**
   * Checks the submission against the limits and, when they reserve for it, resolves only once its
   * report is in Redis, so a 200 still means "in Redis". Throws an UNAVAILABLE AppError when Redis
   * fails, with whatever the checks reserved released.
   */
  accept(check: GuardRequest, report: IntakeReport): Promise<ReserveOutcome>;
}

export function queueUnavailable(err: unknown): AppError {
  return unavailable('The queue (Redis)', 'the report was not recorded, try again', err);
}
