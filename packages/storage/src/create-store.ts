import { join } from 'node:path';
import type { Store } from './store.js';
import { openSqliteStore } from './sqlite/sqlite.adapter.js';

export interface StoreConfig {
  DATA_DIR: string;
}

export const SQLITE_FILE_NAME = 'reports.db';

/** Opens the configured store. The embedded SQLite file under DATA_DIR is the default. */
export async function createStore(config: StoreConfig): Promise<Store> {
  return openSqliteStore(join(config.DATA_DIR, SQLITE_FILE_NAME));
}
