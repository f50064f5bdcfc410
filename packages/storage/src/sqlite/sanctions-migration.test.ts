import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { MIGRATIONS } from './schema.js';
import { openSqliteStore } from './sqlite.adapter.js';

const dir = mkdtempSync(join(tmpdir(), 'rm-migrate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('a ban of an earlier version becomes a permanent sanction of its case, with its feed event', async () => {
  const file = join(dir, 'reports.db');
  const old = new Database(file);
  for (const m of MIGRATIONS.slice(0, 4)) old.exec(m);
  old.pragma('user_version = 4');
  old.exec(`INSERT INTO cases VALUES ('c1', 'u1', 'approved', NULL, 3, 1000, 2000)`);
  old.exec(`INSERT INTO case_events (case_id, decision_id, action, moderator_id, from_state, to_state, at, result) VALUES ('c1', 'd-approve', 'approve', 'mod-7', 'claimed', 'approved', 2000, 'null')`);
  old.exec(`INSERT INTO bans VALUES ('u1', 'c1', 2000)`);
  old.close();

  const store = openSqliteStore(file);
  try {
    expect(await store.isBanned('u1')).toBe(true);
    expect(await store.sanctionsOfUser('u1')).toEqual([
      { id: 'd-approve', userId: 'u1', caseId: 'c1', kind: 'ban', reason: null, moderatorId: 'mod-7', createdAt: 2000, expiresAt: null, state: 'active', liftedAt: null, liftedBy: null, liftReason: null },
    ]);
    expect(await store.sanctionFeed(0, 10)).toEqual([{ seq: 1, type: 'sanction.created', sanctionId: 'd-approve', userId: 'u1', caseId: 'c1', expiresAt: null, at: 2000 }]);
  } finally {
    await store.close();
  }
});
