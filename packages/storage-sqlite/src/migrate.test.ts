import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateSqlite } from './migrate.js';
import { MIGRATIONS } from './schema.js';

describe('migrateSqlite', () => {
  const dirs: string[] = [];
  const newFile = () => {
    const dir = mkdtempSync(join(tmpdir(), 'rm-migrate-'));
    dirs.push(dir);
    return join(dir, 'reports.db');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('applies every migration to a new file, then none', async () => {
    const file = newFile();
    expect(await migrateSqlite(file)).toEqual({ kind: 'sqlite', applied: MIGRATIONS.map((_, i) => String(i + 1)), pending: [], known: MIGRATIONS.length });
    expect(await migrateSqlite(file)).toEqual({ kind: 'sqlite', applied: [], pending: [], known: MIGRATIONS.length });
  });

  it('on a file an earlier version left, applies only the migrations it lacks', async () => {
    const file = newFile();
    // As the version before the last migration left it.
    const db = new Database(file);
    for (const sql of MIGRATIONS.slice(0, -1)) db.exec(sql);
    db.pragma(`user_version = ${MIGRATIONS.length - 1}`);
    db.close();
    expect(await migrateSqlite(file)).toMatchObject({ applied: [String(MIGRATIONS.length)], pending: [] });
  });
});
