export * from './records.js';
export * from './appeal-records.js';
export * from './transparency-records.js';
export * from './errors.js';
export type { Store } from './store.js';
export { allOpenCases, OPEN_CASES_PAGE } from './open-cases.js';
export { createStore, openMongoStore, SQLITE_FILE_NAME, type StoreConfig } from './create-store.js';
export { DEFAULT_MONGODB_DB, mongoDatabaseName } from './mongodb/database-name.js';
export { openSqliteStore } from './sqlite/sqlite.adapter.js';
