import { redisMaySend, redisRefusing, type Redis } from '@rm/runtime';

/** How long a send whose answer was lost is sent again before it is given up, and how often. */
export const CONFIRM_WINDOW_MS = 3_000;
const CONFIRM_EVERY_MS = 200;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

/** What a sending came to: each part's last settled result, and whether any of it may have reached Redis. */
export interface Sent<T extends readonly unknown[]> {
  results: { [K in keyof T]: PromiseSettledResult<T[K]> };
  /** False only when every attempt was refused before leaving this process: Redis holds nothing of it. */
  mayHaveLanded: boolean;
}

/**
 * Sends again, for CONFIRM_WINDOW_MS, what Redis may have received without its answer reaching
 * us (a reset connection, a restart, a command timeout): for sends that are idempotent (a job add
 * on its job id, reservations on their verdicts key), so sending twice does nothing twice. Answers
 * the last attempt's settled results; the caller decides what a failure still standing means.
 *
 * Stops early once `connection` finds no Redis (nothing listens: it was killed, or is restarting):
 * waiting out the window then only delays the caller's 500 by 3 s (issue 51), and the caller
 * settles what may have landed (abandons it) whether the window ran out or not.
 */
export async function sendUntilConfirmed<T extends readonly unknown[]>(
  connection: Redis,
  send: () => Promise<{ [K in keyof T]: PromiseSettledResult<T[K]> }>,
): Promise<Sent<T>> {
  const giveUpAt = Date.now() + CONFIRM_WINDOW_MS;
  let mayHaveLanded = false;
  const attempt = async () => {
    // Checked before and after: with no offline queue, a command issued while the client is not
    // connected is refused unsent; one issued while connected may have landed whatever it answers.
    const before = redisMaySend(connection);
    const results = await send();
    mayHaveLanded ||= before || redisMaySend(connection);
    return results;
  };
  let results = await attempt();
  while (results.some((r) => r.status === 'rejected') && Date.now() < giveUpAt && !redisRefusing(connection)) {
    await sleep(CONFIRM_EVERY_MS);
    results = await attempt();
  }
  return { results, mayHaveLanded };
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
