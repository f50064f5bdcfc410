/**
 * Filters that repeat a partial index's `$type` filter. The planner picks a partial index only for
 * a query that implies the index's filter, and an equality, `$in` or range on a field does not
 * imply a `$type` on it: a query on such an index carries the predicate itself (indexes.ts).
 */

/** One case's, or several cases', documents: sanctions_active_by_case_v2 (with `state: 'active'`), appeals_by_case. */
export const caseIdIs = (caseId: string) => ({ caseId: { $eq: caseId, $type: 'string' as const } });
export const caseIdIn = (caseIds: string[]) => ({ caseId: { $in: caseIds, $type: 'string' as const } });

/**
 * A time range on a field indexed only where it is a number: appeals_decided, sanctions_by_effective.
 * The server's 'number' alias (any numeric type), as the indexes name it; the driver's types lack it.
 */
export const numberIn = <R extends { $gt?: number; $gte?: number; $lt?: number }>(range: R) => ({ ...range, $type: 'number' as 'double' });
