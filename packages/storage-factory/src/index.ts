import { join } from 'node:path';
import type { MigrateOptions, MigrationReport, PendingMigrations, Store } from '@rm/storage';
import { migrateSqlite, openSqliteStore } from '@rm/storage-sqlite';

export interface StoreConfig {
  DATA_DIR: string;
  /** When set, MongoDB is the store; the SQLite file is not opened. */
  MONGODB_URL?: string;
  /** The database when MONGODB_URL's path names none (default report_moderation). */
  MONGODB_DB?: string;
  /** How long a SQLite write waits for another process's lock (default 5000 ms). */
  SQLITE_BUSY_TIMEOUT_MS?: number;
  /** MongoDB: what opening does with migrations not yet recorded (default `wait`). SQLite migrates its file at every open. */
  MIGRATIONS?: PendingMigrations;
}

export const SQLITE_FILE_NAME = 'reports.db';

const sqliteFile = (config: StoreConfig) => join(config.DATA_DIR, SQLITE_FILE_NAME);
const busyTimeoutMs = (config: StoreConfig) => config.SQLITE_BUSY_TIMEOUT_MS ?? 5_000;

/**
 * Opens the configured store: MongoDB when MONGODB_URL is set, else the embedded SQLite file under
 * DATA_DIR. The one place that chooses an adapter. The MongoDB adapter (and its driver) is loaded
 * here on first use, so a process on SQLite never loads it.
 */
export async function createStore(config: StoreConfig): Promise<Store> {
  if (config.MONGODB_URL) {
    const mongo = await import('@rm/storage-mongodb');
    return mongo.openMongoStore(config.MONGODB_URL, mongo.mongoDatabaseName(config.MONGODB_URL, config.MONGODB_DB), { migrations: config.MIGRATIONS ?? 'wait' });
  }
  return openSqliteStore(sqliteFile(config), { busyTimeoutMs: busyTimeoutMs(config) });
}

/**
 * Applies the configured store's pending migrations (`cli migrate`): SQLite's at the file's open,
 * MongoDB's paged, resumable ones (its driver loaded only then).
 */
export async function migrateStore(config: StoreConfig, options: MigrateOptions = {}): Promise<MigrationReport> {
  if (config.MONGODB_URL) {
    const mongo = await import('@rm/storage-mongodb');
    return mongo.migrateMongo(config.MONGODB_URL, mongo.mongoDatabaseName(config.MONGODB_URL, config.MONGODB_DB), options);
  }
  return migrateSqlite(sqliteFile(config), { busyTimeoutMs: busyTimeoutMs(config) });
}
