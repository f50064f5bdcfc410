import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateStore, SQLITE_FILE_NAME } from './create-store.js';
import { MIGRATIONS } from './sqlite/schema.js';

// `cli migrate` on SQLite: opening the file applies what it lacks, and the report says which.
describe('migrateStore (SQLite)', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'rm-migrate-store-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('applies every migration to a new file, then none', async () => {
    const DATA_DIR = dataDir();
    expect(await migrateStore({ DATA_DIR })).toEqual({ kind: 'sqlite', applied: MIGRATIONS.map((_, i) => String(i + 1)), pending: [], known: MIGRATIONS.length });
    expect(await migrateStore({ DATA_DIR })).toEqual({ kind: 'sqlite', applied: [], pending: [], known: MIGRATIONS.length });
  });

  it('on a file an earlier version left, applies only the migrations it lacks', async () => {
    const DATA_DIR = dataDir();
    // As the version before the last migration left it.
    const db = new Database(join(DATA_DIR, SQLITE_FILE_NAME));
    for (const sql of MIGRATIONS.slice(0, -1)) db.exec(sql);
    db.pragma(`user_version = ${MIGRATIONS.length - 1}`);
    db.close();
    expect(await migrateStore({ DATA_DIR })).toMatchObject({ applied: [String(MIGRATIONS.length)], pending: [] });
  });
});
