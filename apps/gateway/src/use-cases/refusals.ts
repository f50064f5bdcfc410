import { AppError } from '@rm/contracts';
import type { Refusal } from '@rm/report-guard';

export interface RefusalContext {
  reporterId: string;
  userId: string;
  maxPerDay: number;
  rateLimit: number;
}

/** Why a report cannot be made, in words a player or client developer understands. */
export function refusalMessage(refusal: Refusal, c: RefusalContext): string {
  switch (refusal) {
    case 'rate':
      return `Rate limit of ${c.rateLimit} requests per minute exceeded for this API key`;
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
    c: RefusalContext,
  ) {
    super(refusal === 'rate' ? 'RATE_LIMITED' : refusal === 'daily' ? 'DAILY_LIMIT' : 'BAD_REQUEST', refusalMessage(refusal, c));
  }
}

export function refusalError(refusal: Refusal, c: RefusalContext): RefusalError {
  return new RefusalError(refusal, c);
}
