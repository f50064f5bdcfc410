import { join } from 'node:path';
import type { Store } from './store.js';
import type { MongoStoreOptions } from './mongodb/mongodb.adapter.js';
import { mongoDatabaseName } from './mongodb/database-name.js';
import { openSqliteStore } from './sqlite/sqlite.adapter.js';

export interface StoreConfig {
  DATA_DIR: string;
  /** When set, MongoDB is the store; the SQLite file is not opened. */
  MONGODB_URL?: string;
  /** The database when MONGODB_URL's path names none (default report_moderation). */
  MONGODB_DB?: string;
  /** How long a SQLite write waits for another process's lock (default 5000 ms). */
  SQLITE_BUSY_TIMEOUT_MS?: number;
}

export const SQLITE_FILE_NAME = 'reports.db';

/**
 * Opens the configured store: MongoDB when MONGODB_URL is set, else the embedded SQLite file under
 * DATA_DIR.
 */
export async function createStore(config: StoreConfig): Promise<Store> {
  if (config.MONGODB_URL) {
    return openMongoStore(config.MONGODB_URL, mongoDatabaseName(config.MONGODB_URL, config.MONGODB_DB));
  }
  return openSqliteStore(join(config.DATA_DIR, SQLITE_FILE_NAME), { busyTimeoutMs: config.SQLITE_BUSY_TIMEOUT_MS ?? 5_000 });
}

/**
 * Opens the MongoDB store on database `dbName`. The driver is loaded here, on first use, so a
 * process on SQLite never loads it.
 */
export async function openMongoStore(url: string, dbName: string, options?: MongoStoreOptions): Promise<Store> {
  const adapter = await import('./mongodb/mongodb.adapter.js');
  return adapter.openMongoStore(url, dbName, options);
}
