import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describeSharedStoreContract, describeStoreContract } from '../storage.contract.js';
import { openSqliteStore } from './sqlite.adapter.js';

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

describeSharedStoreContract('sqlite', async () => {
  const file = freshDbFile();
  return [openSqliteStore(file), openSqliteStore(file)];
});
