import { AppError } from '@rm/contracts';

/**
 * A 500 that says what is down and what became of the request, never the driver's own words (they
 * may name hosts, keys or internals): the cause goes to the log line, under the reference id the
 * error handler adds to the message.
 */
export function unavailable(what: string, consequence: string, cause: unknown): AppError {
  return Object.assign(new AppError('UNAVAILABLE', `${what} is unavailable: ${consequence}`), { cause });
}

/** Runs a call to infrastructure (Redis, the queue); a failure becomes an `unavailable` 500. */
export async function orUnavailable<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw unavailable(what, 'nothing was recorded, try again', err);
  }
}
