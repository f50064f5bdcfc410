import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit.js';

const dir = mkdtempSync(join(tmpdir(), 'rm-group-commit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let db: Database.Database;
let file: string;
beforeEach(() => {
  file = join(dir, `${Math.random().toString(36).slice(2)}.db`);
  db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (id TEXT PRIMARY KEY)');
});
afterEach(() => db.close());

const insert = (id: string) => () => db.prepare('INSERT INTO t (id) VALUES (?)').run(id).changes;
const ids = () => db.prepare<[], { id: string }>('SELECT id FROM t ORDER BY id').all().map((r) => r.id);

describe('groupCommit', () => {
  it('commits the writes of one turn together; one that throws is refused alone', async () => {
    const { commit, close } = groupCommit(db, `${file}-wal`);
    const results = await Promise.allSettled([commit(insert('a')), commit(insert('a')), commit(insert('b'))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(ids()).toEqual(['a', 'b']);
    close();
  });

  it('settles only once the WAL is synced: a sync that fails refuses its callers, though the rows are written', async () => {
    // fsync of /dev/null fails (EINVAL): the stand-in for a disk that cannot confirm the write.
    const { commit, close } = groupCommit(db, '/dev/null');
    await expect(commit(insert('c'))).rejects.toMatchObject({ code: 'EINVAL' });
    // Written but not known to be on disk: a caller retries, and finds its write there.
    expect(ids()).toEqual(['c']);
    close();
  });

  it('refuses writes once closed', async () => {
    const { commit, close } = groupCommit(db, `${file}-wal`);
    close();
    await expect(commit(insert('d'))).rejects.toThrow('the store is closed');
    expect(ids()).toEqual([]);
  });
});
