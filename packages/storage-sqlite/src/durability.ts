import type Database from 'better-sqlite3';

/**
 * The store's commit level: a commit is on disk before it returns (see sqlite.adapter.ts for why).
 * Set once when the store opens, and restored by withoutSync.
 */
export const SYNCHRONOUS = 'FULL';

/**
 * Runs a write whose loss in a power cut is harmless (it is redone or recomputed) without waiting
 * for the disk: `synchronous = NORMAL` for it alone, the store's level again after. A process
 * crash loses no commit either way (WAL mode); a power cut can lose only the last commits, and the
 * next FULL commit syncs these with it, since the WAL is synced as a whole and in order.
 */
export function withoutSync<T>(db: Database.Database, write: () => T): T {
  // `exec`, not `db.pragma`: this runs twice per group commit, and `pragma` builds a statement
  // object each time (about 9 µs a pair against 1.5).
  db.exec('PRAGMA synchronous = NORMAL');
  try {
    return write();
  } finally {
    db.exec(`PRAGMA synchronous = ${SYNCHRONOUS}`);
  }
}
