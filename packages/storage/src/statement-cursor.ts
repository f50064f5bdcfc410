import { InvalidCursorError } from './errors.js';

/** The statements' page cursor: the last sanction's start time and id (`<ms>:<id>`). */
export const encodeStatementCursor = (at: number, id: string) => `${at}:${id}`;

export function decodeStatementCursor(cursor: string): { at: number; id: string } {
  const colon = cursor.indexOf(':');
  const at = Number(cursor.slice(0, colon));
  if (colon <= 0 || !Number.isSafeInteger(at)) throw new InvalidCursorError(cursor);
  return { at, id: cursor.slice(colon + 1) };
}
