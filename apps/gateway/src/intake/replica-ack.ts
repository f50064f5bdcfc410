import type { AppError } from '@rm/contracts';
import type { Redis } from '@rm/runtime';
import { unavailable } from '../errors/unavailable.js';

/** REDIS_MIN_REPLICAS_ACK and its bound: how many replicas must hold a turn's job before its 200s. */
export interface ReplicaAck {
  replicas: number;
  timeoutMs: number;
}

/**
 * Waits until `replicas` replicas hold every write `connection` sent so far (Redis's WAIT, which
 * counts one connection's writes: the turn's reservations and job went on it), at most
 * `timeoutMs`. Why: replication is asynchronous, so a primary that fails over right after
 * answering can take an acknowledged job with it; a job on a replica is on the primary Sentinel
 * promotes (it picks the most up-to-date replica). One WAIT per turn, not per report. Answers the
 * 500 to give when too few confirmed in time, or undefined.
 */
export async function replicasMissing(connection: Redis, ack: ReplicaAck): Promise<AppError | undefined> {
  let confirmed = 0;
  let cause: unknown;
  try {
    confirmed = Number(await connection.call('WAIT', ack.replicas, ack.timeoutMs));
  } catch (err) {
    cause = err;
  }
  if (confirmed >= ack.replicas) return undefined;
  return unavailable(
    'The queue (Redis)',
    `${confirmed} of the ${ack.replicas} replica(s) required (REDIS_MIN_REPLICAS_ACK) confirmed the report within ${ack.timeoutMs} ms, so it was not recorded, try again`,
    cause ?? new Error(`WAIT ${ack.replicas} ${ack.timeoutMs} answered ${confirmed}`),
  );
}
