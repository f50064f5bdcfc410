import { z } from 'zod';

/** A whole number ≥ 1 from a query string, in decimal digits (an empty value is refused, not read as 0), at most `max`. */
export const positiveIntFromQuery = (what: string, max?: number) => {
  let n = z.coerce
    .number({ error: `${what} must be an integer` })
    .int(`${what} must be an integer`)
    .min(1, `${what} must be at least 1`);
  if (max !== undefined) n = n.max(max, `${what} must be at most ${max}`);
  // Decimal notation only: `0x10`, `1e2` or ` 5` would otherwise be read as numbers.
  return z.preprocess((v) => (typeof v === 'string' && !/^-?[0-9]+(\.[0-9]+)?$/.test(v) ? Number.NaN : v), n);
};

const seqCursorMessage = 'after must be a cursor returned as next (a non-negative integer)';
/** `after` of a list paged by a sequence number (the sanction feed, reporter outcomes): a `next` it returned. */
export const seqCursor = () =>
  z
    .string({ error: seqCursorMessage })
    // Aborts: the check below would only say the same again.
    .regex(/^(0|[1-9]\d{0,15})$/, { message: seqCursorMessage, abort: true })
    .refine((v) => Number.isSafeInteger(Number(v)), seqCursorMessage);
