import type { MigrationReport } from '@rm/storage';
import { MIGRATIONS } from './schema.js';
import { openSqliteStore } from './sqlite.adapter.js';

/**
 * `cli migrate` on SQLite: opening the file applies the migrations it lacks (as every process's
 * open does: they are schema changes of one embedded file, taken under its write lock), and the
 * report says which.
 */
export async function migrateSqlite(file: string, options: { busyTimeoutMs?: number } = {}): Promise<MigrationReport> {
  const applied: string[] = [];
  const store = openSqliteStore(file, { ...options, onMigrated: (n) => applied.push(String(n)) });
  await store.close();
  return { kind: 'sqlite', applied, pending: [], known: MIGRATIONS.length };
}
