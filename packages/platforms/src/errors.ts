/**
 * A call to an outside platform failed. `retryable` says whether trying again later can help (a
 * timeout, a 5xx) or not (a 4xx: the request itself is wrong, an operator must act first).
 */
export class PlatformError extends Error {
  constructor(
    readonly platform: string,
    /** What went wrong, without the platform's name: "did not answer within 3000 ms". */
    readonly reason: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(`${platform} ${reason}`);
    this.name = 'PlatformError';
  }
}

/** The platform answered 429 and asked us to wait longer than we wait inline. */
export class PlatformRateLimitedError extends PlatformError {
  constructor(
    platform: string,
    /** Read by the queue's backoff: the job is not retried sooner. */
    readonly retryAfterMs: number,
  ) {
    super(platform, `is rate limiting us: retry after ${retryAfterMs} ms`, true, 429);
    this.name = 'PlatformRateLimitedError';
  }
}

/** The chat message to edit no longer exists (deleted on the platform). */
export class MessageNotFoundError extends PlatformError {
  constructor(platform: string, messageId: string) {
    super(platform, `has no message ${messageId}`, false, 404);
    this.name = 'MessageNotFoundError';
  }
}
