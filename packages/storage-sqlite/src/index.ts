export { openSqliteStore } from './sqlite.adapter.js';
export { migrateSqlite } from './migrate.js';
