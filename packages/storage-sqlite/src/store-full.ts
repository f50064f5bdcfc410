/**
 * SQLite's "database or disk is full" (SQLITE_FULL: the transaction that met it rolled back
 * whole), or ENOSPC from the group commit's own fsync of the WAL (a file system that allocates
 * late answers there; the callers were not told the write stood, and retry it). The store answers
 * both as the port's StoreFullError (`answeringStoreFull` of @rm/storage).
 */
export function isSqliteFull(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return code === 'SQLITE_FULL' || code === 'ENOSPC';
}
