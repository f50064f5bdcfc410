import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeSharedStoreContract, describeStoreContract } from '@rm/storage/contract';
import { openSqliteStore } from './sqlite.adapter.js';
import { openSqliteStoreInChild } from './store-in-child.js';

const tempDirs: string[] = [];

function freshDbFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rm-store-'));
  tempDirs.push(dir);
  return join(dir, 'reports.db');
}

afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describeStoreContract('sqlite', async () => openSqliteStore(freshDbFile()));

// Each handle in a process of its own: in one process, better-sqlite3's synchronous calls never
// interleave, so a race between them could not happen and the test could not fail.
describeSharedStoreContract('sqlite', async () => {
  const file = freshDbFile();
  await openSqliteStore(file).close(); // migrate once, before the two processes open it
  return Promise.all([openSqliteStoreInChild(file), openSqliteStoreInChild(file)]);
});

// CI saw workers fail to start on a new file while another process held its write lock: once while
// the gateway migrated it (after the short write timeout), once while the gateway switched it to WAL
// (at once: a switch upgrades a read to a write, where SQLite calls no busy handler). The lock is held
// by another process, as the gateway holds it: in one process better-sqlite3's synchronous wait could
// never see it released.
it.each([
  ['migrating it (in WAL mode)', 'WAL'],
  ['switching a new file to WAL (still in rollback mode)', 'DELETE'],
])('opening waits out another process holding the write lock, %s', async (_, journalMode) => {
  const file = freshDbFile();
  const holder = spawn(
    process.execPath,
    ['-e', `const db = new (require('better-sqlite3'))(process.argv[1]); db.pragma('journal_mode = ${journalMode}'); db.exec('BEGIN IMMEDIATE'); console.log('locked'); setTimeout(() => { db.exec('COMMIT'); db.close(); }, 400);`, file],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise((done) => holder.once('exit', done));
  await new Promise<void>((locked, fail) => {
    holder.stdout.once('data', () => locked());
    holder.once('exit', (code) => fail(new Error(`the lock holder exited (${code}) before it held the lock`)));
  });
  const store = openSqliteStore(file, { busyTimeoutMs: 1 });
  await store.addUser({ id: 'u1', name: 'one', displayName: 'One', avatar: null });
  expect(await store.getUser('u1')).toMatchObject({ id: 'u1' });
  await store.close();
  await exited;
});
