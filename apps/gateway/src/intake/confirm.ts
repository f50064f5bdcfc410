/** How long a send whose answer was lost is sent again before it is given up, and how often. */
export const CONFIRM_WINDOW_MS = 3_000;
const CONFIRM_EVERY_MS = 200;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

/**
 * Sends again, for CONFIRM_WINDOW_MS, what Redis may have received without its answer reaching
 * us (a reset connection, a restart, a command timeout): for sends that are idempotent (a job add
 * on its job id, reservations on their verdicts key), so sending twice does nothing twice. Answers
 * the last attempt's settled results; the caller decides what a failure still standing means.
 */
export async function sendUntilConfirmed<T extends readonly unknown[]>(
  send: () => Promise<{ [K in keyof T]: PromiseSettledResult<T[K]> }>,
): Promise<{ [K in keyof T]: PromiseSettledResult<T[K]> }> {
  const giveUpAt = Date.now() + CONFIRM_WINDOW_MS;
  let results = await send();
  while (results.some((r) => r.status === 'rejected') && Date.now() < giveUpAt) {
    await sleep(CONFIRM_EVERY_MS);
    results = await send();
  }
  return results;
}

/** How long something that must happen (a release) is tried again in the background, at most. */
const BACKGROUND_WINDOW_MS = 10 * 60_000;

/**
 * Runs `attempt` until it succeeds, waiting more each time (up to 10 s), for up to 10 minutes:
 * for a release a caller no longer waits for, while Redis is out of reach. `onGiveUp` gets the last error.
 */
export async function retryInBackground(attempt: () => Promise<unknown>, onGiveUp: (err: Error) => void): Promise<void> {
  let last: Error | undefined;
  for (let wait = CONFIRM_EVERY_MS, until = Date.now() + BACKGROUND_WINDOW_MS; Date.now() < until; wait = Math.min(wait * 2, 10_000)) {
    try {
      await attempt();
      return;
    } catch (err) {
      last = err as Error;
    }
    await sleep(wait);
  }
  onGiveUp(last ?? new Error('gave up'));
}

/**
 * Runs `attempt` now and answers its result, so that the caller is answered after it (a client
 * retrying at once finds what was released free); if it fails, it goes on in the background
 * (retryInBackground) and this answers undefined.
 */
export async function nowOrInBackground<T>(attempt: () => Promise<T>, onGiveUp: (err: Error) => void): Promise<T | undefined> {
  try {
    return await attempt();
  } catch {
    void retryInBackground(attempt, onGiveUp);
    return undefined;
  }
}
