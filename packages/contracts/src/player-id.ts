import { z } from 'zod';

/**
 * A player's id looked up (check's userId and reporterId, `{id}` of the reports list, `{userId}`
 * of the ban API): any string submit accepts as userId or reporter.id, of any length, non-empty
 * (an empty path segment is another path; check has always required one). Bounded only by the
 * body or the request line (LIMITS.pathParamLength). One bound for a player id everywhere.
 */
export const playerId = (what: string) => z.string({ error: `${what} must be a string` }).min(1, `${what} must not be empty`);
