import type { Logger } from 'pino';

/** The longest a process stays silent while its writes keep meeting a full disk. */
export const STORE_FULL_LOG_INTERVAL_MS = 60_000;

/**
 * "disk full", said once a minute by a process whose jobs keep meeting a full disk under the store
 * (StoreFullError), with the count of refused attempts since it last said so, instead of one line
 * per failed attempt: while the disk is full every job that writes fails, and a line each would
 * flood the log (and the disk, where logs share it) with the same news.
 */
export class StoreFullLog {
  private lastAt = -Infinity;
  private unsaid = 0;

  constructor(
    private readonly logger: Pick<Logger, 'error'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Notes one attempt refused for a full disk (on `queue`); logs when a minute has passed since the last line. */
  note(queue: string, err: Error): void {
    this.unsaid += 1;
    const at = this.now();
    if (at - this.lastAt < STORE_FULL_LOG_INTERVAL_MS) return;
    this.logger.error(
      { queue, attemptsRefused: this.unsaid, err: err.message },
      'disk full: the store refuses writes; jobs that write are retried until space is freed (said once a minute)',
    );
    this.lastAt = at;
    this.unsaid = 0;
  }
}
