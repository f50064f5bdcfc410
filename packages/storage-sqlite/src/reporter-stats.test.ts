import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { report } from '@rm/storage/contract';
import { openSqliteStore } from './sqlite.adapter.js';

const dir = mkdtempSync(join(tmpdir(), 'rm-stats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('undoing a decision counted before the reporter had a row leaves 0, never -1 (which would read as full credibility)', async () => {
  const file = join(dir, 'reports.db');
  const store = openSqliteStore(file);
  try {
    const [saved] = await store.saveReports([report('r1', 'u1', 1_000, { reporterId: 'rep-1' })]);
    const opened = (await store.getCase(saved!.caseId))!;
    const event = (decisionId: string, action: 'dismiss' | 'undo') => ({ decisionId, action, moderatorId: 'mod-1', at: 2_000, result: null });
    const dismissed = (await store.transitionCase({ caseId: opened.id, expectedVersion: 1, expectedState: 'open', next: { state: 'dismissed', claimedBy: null }, event: event('d1', 'dismiss') }))!;
    expect(await store.reporterStats([{ platform: 'gameplatform', id: 'rep-1' }])).toEqual([{ platform: 'gameplatform', id: 'rep-1', approved: 0, dismissed: 1 }]);
    // As on a database whose decisions predate the count: the reporter has no row.
    const raw = new Database(file);
    raw.exec(`DELETE FROM reporter_stats`);
    raw.close();
    await store.transitionCase({ caseId: opened.id, expectedVersion: dismissed.version, expectedState: 'dismissed', next: { state: 'open', claimedBy: null }, event: event('d2', 'undo') });
    expect(await store.reporterStats([{ platform: 'gameplatform', id: 'rep-1' }])).toEqual([{ platform: 'gameplatform', id: 'rep-1', approved: 0, dismissed: 0 }]);
    // And with a row at 0 already: still 0.
    const again = (await store.getCase(opened.id))!;
    const redismissed = (await store.transitionCase({ caseId: opened.id, expectedVersion: again.version, expectedState: 'open', next: { state: 'dismissed', claimedBy: null }, event: event('d3', 'dismiss') }))!;
    const raw2 = new Database(file);
    raw2.exec(`UPDATE reporter_stats SET dismissed = 0`);
    raw2.close();
    await store.transitionCase({ caseId: opened.id, expectedVersion: redismissed.version, expectedState: 'dismissed', next: { state: 'open', claimedBy: null }, event: event('d4', 'undo') });
    expect(await store.reporterStats([{ platform: 'gameplatform', id: 'rep-1' }])).toEqual([{ platform: 'gameplatform', id: 'rep-1', approved: 0, dismissed: 0 }]);
  } finally {
    await store.close();
  }
});
