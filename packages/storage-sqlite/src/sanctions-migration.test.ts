import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { statementFixture } from '@rm/storage/contract';
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
      {
        id: 'd-approve',
        userId: 'u1',
        caseId: 'c1',
        kind: 'ban',
        blocksLogin: true,
        category: null,
        source: { type: 'case', id: 'c1' },
        idempotencyKey: null,
        effectiveAt: null,
        ladder: null,
        evidence: [],
        reason: null,
        moderatorId: 'mod-7',
        boundModeratorId: null,
        createdAt: 2000,
        expiresAt: null,
        state: 'active',
        liftedAt: null,
        liftedBy: null,
        liftReason: null,
        statement: null,
      },
    ]);
    expect(await store.sanctionFeed(0, 10)).toEqual([{ seq: 1, type: 'sanction.created', sanctionId: 'd-approve', userId: 'u1', caseId: 'c1', kind: 'ban', expiresAt: null, at: 2000, statement: null }]);
  } finally {
    await store.close();
  }
});

it('migration 9: sanctions of version 8 are login-blocking bans from their case or rule, and the feed keeps its seqs', async () => {
  const file = join(dir, 'v8.db');
  const old = new Database(file);
  for (const m of MIGRATIONS.slice(0, 8)) old.exec(m);
  old.pragma('user_version = 8');
  old.exec(`INSERT INTO sanctions VALUES ('d-1', 'u1', 'c1', 'ban', 'aimbot', 'mod-1', 1000, NULL, 'active', NULL, NULL, NULL)`);
  old.exec(`INSERT INTO sanctions VALUES ('rule-c2-cheat-ban', 'u2', 'c2', 'ban', NULL, 'bot', 2000, 9000, 'expired', NULL, NULL, NULL)`);
  old.exec(`INSERT INTO sanction_events (type, sanction_id, user_id, case_id, expires_at, at) VALUES ('sanction.created', 'd-1', 'u1', 'c1', NULL, 1000), ('sanction.created', 'rule-c2-cheat-ban', 'u2', 'c2', 9000, 2000), ('sanction.expired', 'rule-c2-cheat-ban', 'u2', 'c2', 9000, 9000)`);
  old.close();

  const store = openSqliteStore(file);
  try {
    expect(await store.getSanction('d-1')).toMatchObject({ kind: 'ban', blocksLogin: true, source: { type: 'case', id: 'c1' }, category: null, reason: 'aimbot' });
    expect(await store.getSanction('rule-c2-cheat-ban')).toMatchObject({ kind: 'ban', blocksLogin: true, source: { type: 'rule', id: 'cheat-ban' }, state: 'expired' });
    expect(await store.bannedUserIds('', 100)).toEqual(['u1']);
    expect((await store.sanctionFeed(0, 10)).map((e) => [e.seq, e.kind])).toEqual([[1, 'ban'], [2, 'ban'], [3, 'ban']]);
    await store.liftSanction({ sanctionId: 'd-1', at: 5000, moderatorId: 'm', sourceId: 'l', effects: [] });
    expect((await store.sanctionFeed(3, 10)).map((e) => e.seq)).toEqual([4]);
  } finally {
    await store.close();
  }
});

it("migration 15: a trusted system's key becomes its creator's own, and its sanction gets its key's bound moderator", async () => {
  const file = join(dir, 'v14.db');
  const old = new Database(file);
  const TRUSTED_APART = 14;
  for (const m of MIGRATIONS.slice(0, TRUSTED_APART)) old.exec(m);
  old.pragma(`user_version = ${TRUSTED_APART}`);
  old.exec(`INSERT INTO api_keys VALUES ('key-a', 'vac', 'h', '["sanctions.write"]', 0, 0, NULL, 1, NULL, 'mod-1'), ('key-b', 'eac', 'h', '["sanctions.write"]', 0, 0, NULL, 1, NULL, NULL)`);
  const insert = old.prepare(
    `INSERT INTO sanctions (id, user_id, case_id, kind, blocks_login, category, source_type, source_id, idempotency_key, effective_at, ladder, evidence, reason, moderator_id, created_at, expires_at, state)
     VALUES (?, ?, NULL, 'ban', 1, 'cheating', 'anticheat', 'd', ?, NULL, NULL, '[]', 'cheat', ?, 1000, NULL, 'active')`,
  );
  insert.run('s-a', 'u1', 'det-1', 'key-a');
  insert.run('s-b', 'u2', 'det-2', 'key-b');
  old.close();

  const store = openSqliteStore(file);
  try {
    expect(await store.getSanction('s-a')).toMatchObject({ moderatorId: 'key-a', boundModeratorId: 'mod-1', idempotencyKey: 'det-1' });
    expect(await store.getSanction('s-b')).toMatchObject({ moderatorId: 'key-b', boundModeratorId: null, idempotencyKey: 'det-2' });
    // key-b's det-1 is a sanction of its own; key-a's det-1 still answers key-a's.
    const item = (id: string, moderatorId: string) => ({ id, userId: 'u3', kind: 'ban', blocksLogin: true, category: 'cheating', source: { type: 'anticheat', id: 'd' }, idempotencyKey: 'det-1', evidence: [], reason: 'cheat', moderatorId, expiresAt: null, statement: statementFixture({ from: 2000 }), effects: [] });
    const [b, a] = await store.createSanctions({ items: [item('s-b1', 'key-b'), item('s-a1', 'key-a')], at: 2000, effectiveAt: null, sourceId: 'x' });
    expect([b!.sanction.id, b!.created, a!.sanction.id, a!.created]).toEqual(['s-b1', true, 's-a', false]);
  } finally {
    await store.close();
  }
});
