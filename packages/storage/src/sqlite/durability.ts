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
  const level = levelsOf(db);
  level.normal.run();
  try {
    return write();
  } finally {
    level.store.run();
  }
}

/** The two statements prepared once per connection: `db.pragma` prepares its statement on every call. */
const levels = new WeakMap<Database.Database, { normal: Database.Statement; store: Database.Statement }>();
function levelsOf(db: Database.Database) {
  let level = levels.get(db);
  if (!level) levels.set(db, (level = { normal: db.prepare('PRAGMA synchronous = NORMAL'), store: db.prepare(`PRAGMA synchronous = ${SYNCHRONOUS}`) }));
  return level;
}
