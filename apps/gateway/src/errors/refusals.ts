import { AppError } from '@rm/contracts';
import type { Refusal } from '@rm/report-guard';

export interface RefusalContext {
  reporterId: string;
  userId: string;
  maxPerDay: number;
  rateLimit: number;
}

const rateMessage = (rateLimit: number) => `Rate limit of ${rateLimit} requests per minute exceeded for this API key`;

/** Why a report cannot be made, in words a player or client developer understands. */
export function refusalMessage(refusal: Refusal, c: RefusalContext): string {
  switch (refusal) {
    case 'rate':
      return rateMessage(c.rateLimit);
    case 'daily':
      return `Reporter ${c.reporterId} has reached the maximum of ${c.maxPerDay} reports per day`;
    case 'banned':
      return `User ${c.userId} is already banned`;
    case 'duplicate':
      return `Reporter ${c.reporterId} has already reported user ${c.userId}; that case is still open`;
  }
}

/** A request refused by one of the limits; `refusal` says which (counted by the metrics). */
export class RefusalError extends AppError {
  constructor(
    readonly refusal: Refusal,
    message: string,
  ) {
    super(refusal === 'rate' ? 'RATE_LIMITED' : refusal === 'daily' ? 'DAILY_LIMIT' : 'BAD_REQUEST', message);
  }
}

export function refusalError(refusal: Refusal, c: RefusalContext): RefusalError {
  return new RefusalError(refusal, refusalMessage(refusal, c));
}

/** An API key over its per-minute rate, on a route without report checks. */
export function rateLimited(rateLimit: number): RefusalError {
  return new RefusalError('rate', rateMessage(rateLimit));
}
