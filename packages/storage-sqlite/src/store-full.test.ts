import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { answeringStoreFull, StoreFullError } from '@rm/storage';
import { isSqliteFull } from './store-full.js';

// A real SQLITE_FULL without a full disk: a page limit the file reaches (max_page_count).
function smallDb(): Database.Database {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (v BLOB)');
  db.pragma('max_page_count = 8');
  return db;
}

it('answers SQLITE_FULL as StoreFullError, from an async method and a synchronous one, and passes other errors and values through', async () => {
  const db = smallDb();
  const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
  const fill = () => {
    for (;;) insert.run(Buffer.alloc(1024));
  };
  const store = answeringStoreFull({
    kind: 'test',
    async fill() {
      fill();
    },
    fillNow: fill,
    async broken() {
      db.prepare('SELECT * FROM missing').all();
    },
    async count() {
      return db.prepare('SELECT count(*) AS n FROM t').get() as { n: number };
    },
  }, isSqliteFull);
  expect(store.kind).toBe('test');
  const full = await store.fill().catch((err: unknown) => err);
  expect(full).toBeInstanceOf(StoreFullError);
  expect(((full as Error).cause as { code: string }).code).toBe('SQLITE_FULL');
  expect(() => store.fillNow()).toThrow(StoreFullError);
  await expect(store.broken()).rejects.toMatchObject({ code: 'SQLITE_ERROR' });
  expect((await store.count()).n).toBeGreaterThan(0);
  db.close();
});
