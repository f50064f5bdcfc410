import { z } from 'zod';

/**
 * A player's id in a path (`{id}` of the reports list, `{userId}` of the ban API): any string
 * submit accepts as userId, non-empty (an empty segment is another path), bounded only by the
 * request line (LIMITS.pathParamLength). One bound for a player id everywhere.
 */
export const playerIdInPath = (what: string) => z.string({ error: `${what} must be a string` }).min(1, `${what} must not be empty`);
