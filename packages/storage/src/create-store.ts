import { join } from 'node:path';
import type { Store } from './store.js';
import type { MigrateOptions, MigrationReport, PendingMigrations } from './migrations.js';
import type { MongoStoreOptions } from './mongodb/mongodb.adapter.js';
import { mongoDatabaseName } from './mongodb/database-name.js';
import { MIGRATIONS as SQLITE_MIGRATIONS } from './sqlite/schema.js';
import { openSqliteStore } from './sqlite/sqlite.adapter.js';

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
 * DATA_DIR.
 */
export async function createStore(config: StoreConfig): Promise<Store> {
  if (config.MONGODB_URL) {
    return openMongoStore(config.MONGODB_URL, mongoDatabaseName(config.MONGODB_URL, config.MONGODB_DB), { migrations: config.MIGRATIONS ?? 'wait' });
  }
  return openSqliteStore(sqliteFile(config), { busyTimeoutMs: busyTimeoutMs(config) });
}

/**
 * Applies the configured store's pending migrations (`cli migrate`). SQLite: opening the file
 * applies them, as every process's open does (its migrations are schema changes of one embedded
 * file, taken under its write lock). MongoDB: the paged, resumable migrations (mongodb/migrations.ts).
 */
export async function migrateStore(config: StoreConfig, options: MigrateOptions = {}): Promise<MigrationReport> {
  if (config.MONGODB_URL) return migrateMongo(config.MONGODB_URL, mongoDatabaseName(config.MONGODB_URL, config.MONGODB_DB), options);
  const applied: string[] = [];
  const store = openSqliteStore(sqliteFile(config), { busyTimeoutMs: busyTimeoutMs(config), onMigrated: (n) => applied.push(String(n)) });
  await store.close();
  return { kind: 'sqlite', applied, pending: [], known: SQLITE_MIGRATIONS.length };
}

/**
 * Opens the MongoDB store on database `dbName`. The driver is loaded here, on first use, so a
 * process on SQLite never loads it.
 */
export async function openMongoStore(url: string, dbName: string, options?: MongoStoreOptions): Promise<Store> {
  const adapter = await import('./mongodb/mongodb.adapter.js');
  return adapter.openMongoStore(url, dbName, options);
}

/** Applies the pending MongoDB migrations of database `dbName` (the driver loaded on first use, as above). */
export async function migrateMongo(url: string, dbName: string, options?: MigrateOptions): Promise<MigrationReport> {
  const adapter = await import('./mongodb/mongodb.adapter.js');
  return adapter.migrateMongo(url, dbName, options);
}
