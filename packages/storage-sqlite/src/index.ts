export { openSqliteStore } from './sqlite.adapter.js';
