import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { NewReport } from '../records.js';
import { describeStoreContract } from '../storage.contract.js';
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

describe('SQLite store: several connections on one file', () => {
  const report = (id: string, receivedAt: number): NewReport => ({
    id,
    userId: 'new-user',
    reporterId: `reporter-${id}`,
    reporterPlatform: 'discord',
    reportType: null,
    answers: [],
    evidence: [],
    receivedAt,
    user: { name: 'new-user', displayName: 'New User', avatar: null },
  });

  it('two connections saving reports about the same new user open exactly one case', async () => {
    const file = freshDbFile();
    const a = openSqliteStore(file);
    const b = openSqliteStore(file);
    try {
      const [[fromA], [fromB]] = await Promise.all([a.saveReports([report('ra', 1_000)]), b.saveReports([report('rb', 2_000)])]);

      expect(fromA!.created && fromB!.created).toBe(true);
      expect(fromA!.caseId).toBe(fromB!.caseId);
      expect([fromA!.openedCase, fromB!.openedCase].filter(Boolean)).toHaveLength(1);
      expect(await a.caseReportIds(fromA!.caseId)).toEqual(['ra', 'rb']);
      expect((await b.openCaseOfUser('new-user'))?.id).toBe(fromA!.caseId);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
