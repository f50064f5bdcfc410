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

  it('a later write rides the next group, or commits alone, unsynced, once LATER_MS have passed', async () => {
    // On /dev/null every sync fails: what settles without an error was never synced.
    const { commit, later, close } = groupCommit(db, '/dev/null');
    const alone = later(insert('e'));
    expect(ids()).toEqual([]);
    await expect(alone).resolves.toBe(1);
    expect(ids()).toEqual(['e']);
    // Asked before a commit, it joins the commit's group and settles with it.
    const riding = later(insert('f'));
    await expect(commit(insert('g'))).rejects.toMatchObject({ code: 'EINVAL' });
    await expect(riding).rejects.toMatchObject({ code: 'EINVAL' });
    expect(ids()).toEqual(['e', 'f', 'g']);
    close();
  });

  it('commits what waits when it closes, and refuses later writes after', async () => {
    const { later, close } = groupCommit(db, `${file}-wal`);
    const waiting = later(insert('h'));
    close();
    await expect(waiting).resolves.toBe(1);
    expect(ids()).toEqual(['h']);
    await expect(later(insert('i'))).rejects.toThrow('the store is closed');
  });

  it('refuses writes once closed', async () => {
    const { commit, close } = groupCommit(db, `${file}-wal`);
    close();
    await expect(commit(insert('d'))).rejects.toThrow('the store is closed');
    expect(ids()).toEqual([]);
  });
});
