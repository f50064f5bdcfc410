import type Database from 'better-sqlite3';

/**
 * Runs a write whose loss in a power cut is harmless (it is redone or recomputed) without waiting
 * for the disk: `synchronous = NORMAL` for it alone, FULL again after. A process crash loses no
 * commit either way (WAL mode); a power cut can lose only the last commits, and the next FULL
 * commit syncs these with it, since the WAL is synced as a whole and in order.
 */
export function withoutSync<T>(db: Database.Database, write: () => T): T {
  db.pragma('synchronous = NORMAL');
  try {
    return write();
  } finally {
    db.pragma('synchronous = FULL');
  }
}
