import { AppError } from '@rm/contracts';

/**
 * Runs a call to infrastructure (Redis, the queue); a failure becomes a 500 that says what is
 * down and that nothing was recorded, instead of an anonymous internal error.
 */
export async function orUnavailable<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('UNAVAILABLE', `${what} is unavailable (${(err as Error).message}); nothing was recorded, try again`);
  }
}
