import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describeSharedStoreContract, describeStoreContract } from '../storage.contract.js';
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
