import { MongoError, MongoServerError, type ClientSession, type MongoClient, type TransactionOptions } from 'mongodb';
import { MAJORITY_WRITE, MONGO_LIMITS } from './connect.js';

/**
 * Every transaction of the store: snapshot reads on the primary and majority writes, so a
 * committed decision survives a failover and a compare-and-set sees the case as the majority has it.
 */
export const TRANSACTION: TransactionOptions = {
  readConcern: { level: 'snapshot' },
  writeConcern: MAJORITY_WRITE,
  maxCommitTimeMS: MONGO_LIMITS.maxCommitTimeMS,
  readPreference: 'primary',
};

/** Told, once per transaction that committed or gave up, how many attempts it took (tests, metrics). */
export type AttemptsListener = (attempts: number) => void;

const listeners = new WeakMap<MongoClient, AttemptsListener>();

/** Calls `listener` after every transaction run on `client`. */
export function watchTransactions(client: MongoClient, listener: AttemptsListener): void {
  listeners.set(client, listener);
}

/** A transaction ran past MONGO_LIMITS.transactionMS, its retries included. */
export class TransactionTimeoutError extends Error {}

/**
 * Runs `work` in a transaction and commits it, retrying the whole of it on a transient error (a
 * write conflict, a failover) and the commit on an unknown result, as the driver's withTransaction
 * does, but for MONGO_LIMITS.transactionMS in all rather than the driver's fixed 120 s: a lost
 * majority fails the job (its queue retries it) when docs/scaling.md says. `work` may run more than
 * once, so it reads everything it decides on inside the transaction.
 */
export async function runTransaction<T>(client: MongoClient, work: (session: ClientSession) => Promise<T>): Promise<T> {
  const deadline = Date.now() + MONGO_LIMITS.transactionMS;
  let attempts = 0;
  try {
    return await client.withSession(async (session) => {
      for (;;) {
        attempts++;
        session.startTransaction(TRANSACTION);
        let result: T;
        try {
          result = await work(session);
        } catch (err) {
          // After a network error the abort may fail too; the server then aborts on its own.
          if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
          if (isTransient(err)) {
            await pauseBefore(attempts + 1, deadline, err);
            continue;
          }
          throw err;
        }
        try {
          await commit(session, deadline);
          return result;
        } catch (err) {
          if (!isTransient(err)) throw err;
          await pauseBefore(attempts + 1, deadline, err);
        }
      }
    });
  } finally {
    listeners.get(client)?.(attempts);
  }
}

/** Commits, retrying while the result is unknown (a write-concern timeout, a lost connection) and time is left. */
async function commit(session: ClientSession, deadline: number): Promise<void> {
  for (;;) {
    try {
      await session.commitTransaction();
      return;
    } catch (err) {
      const unknown = err instanceof MongoError && err.hasErrorLabel('UnknownTransactionCommitResult') && !(err instanceof MongoServerError && err.code === 50);
      if (!unknown || Date.now() >= deadline) throw err;
    }
  }
}

const isTransient = (err: unknown): boolean => err instanceof MongoError && err.hasErrorLabel('TransientTransactionError');

/**
 * A random pause before the next attempt, growing with each (10 ms, 20 ms, 40 ms... at most 500 ms,
 * each between half and all of it), so transactions that conflicted do not collide again at once,
 * and a loser waits out the winner's commit rather than spinning against it; none past the deadline.
 */
async function pauseBefore(attempt: number, deadline: number, cause: unknown): Promise<void> {
  const pause = Math.min(10 * 2 ** (attempt - 2), 500) * (0.5 + Math.random() / 2);
  if (Date.now() + pause >= deadline) {
    throw new TransactionTimeoutError(`a MongoDB transaction gave up after ${MONGO_LIMITS.transactionMS} ms of retries`, { cause });
  }
  await new Promise((resolve) => setTimeout(resolve, pause));
}
