import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { MIGRATIONS } from './schema.js';
import { openSqliteStore } from './sqlite.adapter.js';

const dir = mkdtempSync(join(tmpdir(), 'rm-outcomes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OUTCOMES = MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE report_outcomes'));

it('the outcomes migration gives the reports of decided cases their outcome, in the order the cases were decided', async () => {
  const file = join(dir, 'before-outcomes.db');
  const old = new Database(file);
  for (const m of MIGRATIONS.slice(0, OUTCOMES)) old.exec(m);
  old.pragma(`user_version = ${OUTCOMES}`);
  const insertCase = old.prepare(`INSERT INTO cases (id, user_id, state, claimed_by, version, created_at, updated_at) VALUES (?, ?, ?, NULL, 3, 1000, ?)`);
  const insertReport = old.prepare(
    `INSERT INTO reports (id, case_id, user_id, reporter_id, reporter_platform, report_type, answers, evidence, received_at, user_name, user_display_name, user_avatar)
     VALUES (?, ?, ?, ?, ?, NULL, '[]', '[]', ?, 'n', 'd', NULL)`,
  );
  const insertEvent = old.prepare(
    `INSERT INTO case_events (case_id, decision_id, action, moderator_id, from_state, to_state, at, result) VALUES (?, ?, ?, 'mod-1', ?, ?, ?, 'null')`,
  );
  insertCase.run('approved-late', 'u1', 'approved', 9_999);
  insertEvent.run('approved-late', 'd1', 'approve', 'open', 'approved', 3_000);
  insertCase.run('dismissed-early', 'u2', 'dismissed', 9_999);
  insertEvent.run('dismissed-early', 'd2', 'dismiss', 'open', 'dismissed', 2_000);
  insertCase.run('still-open', 'u3', 'open', 9_999);
  insertReport.run('r-late', 'approved-late', 'u1', 'alice', 'gameplatform', 1_000);
  insertReport.run('r-early', 'dismissed-early', 'u2', 'alice', 'gameplatform', 1_500);
  insertReport.run('r-open', 'still-open', 'u3', 'alice', 'gameplatform', 1_600);
  insertReport.run('r-chat', 'approved-late', 'u1', 'alice', 'chatplatform', 1_700);
  old.close();

  const store = openSqliteStore(file);
  try {
    const alice = await store.reporterOutcomes({ platform: 'gameplatform', id: 'alice' }, 0, 10);
    expect(alice.map((o) => [o.reportId, o.caseId, o.actioned, o.reopened, o.at])).toEqual([
      ['r-early', 'dismissed-early', false, false, 2_000],
      ['r-late', 'approved-late', true, false, 3_000],
    ]);
    expect((await store.reporterOutcomes({ platform: 'chatplatform', id: 'alice' }, 0, 10)).map((o) => o.reportId)).toEqual(['r-chat']);
  } finally {
    await store.close();
  }
});
