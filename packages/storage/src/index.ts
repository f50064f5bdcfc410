export * from './records.js';
export * from './errors.js';
export type { Store } from './store.js';
export { createStore, SQLITE_FILE_NAME, type StoreConfig } from './create-store.js';
export { openSqliteStore } from './sqlite/sqlite.adapter.js';
