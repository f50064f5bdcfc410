import type Database from 'better-sqlite3';
import type { AppealAction, AppealEvent, AppealQuery, AppealRecord, AppealState, AppealTransition, NewAppeal } from '@rm/storage';
import type { Store } from '@rm/storage';
import type { sqliteSanctions } from './sanctions.js';

export interface AppealRow {
  id: string;
  sanction_id: string;
  user_id: string;
  case_id: string | null;
  category: string | null;
  sanction_moderator_id: string;
  automated: number;
  statement: string;
  state: AppealState;
  claimed_by: string | null;
  version: number;
  created_at: number;
  updated_at: number;
  decided_at: number | null;
  decided_by: string | null;
  decision_reason: string | null;
  sla_breached: number;
}
export const toAppeal = (r: AppealRow): AppealRecord => ({
  id: r.id,
  sanctionId: r.sanction_id,
  userId: r.user_id,
  caseId: r.case_id,
  category: r.category,
  sanctionModeratorId: r.sanction_moderator_id,
  automated: r.automated === 1,
  statement: r.statement,
  state: r.state,
  claimedBy: r.claimed_by,
  version: r.version,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  decidedAt: r.decided_at,
  decidedBy: r.decided_by,
  decisionReason: r.decision_reason,
  slaBreached: r.sla_breached === 1,
});

interface AppealEventRow {
  appeal_id: string;
  decision_id: string;
  action: AppealAction;
  moderator_id: string | null;
  from_state: AppealState | null;
  to_state: AppealState;
  reason: string | null;
  at: number;
  result: string | null;
}
const toAppealEvent = (r: AppealEventRow): AppealEvent => ({
  appealId: r.appeal_id,
  decisionId: r.decision_id,
  action: r.action,
  moderatorId: r.moderator_id,
  fromState: r.from_state,
  toState: r.to_state,
  reason: r.reason,
  at: r.at,
  result: r.result === null ? null : (JSON.parse(r.result) as unknown),
});

type AppealMethods = Pick<
  Store,
  'createAppeal' | 'getAppeal' | 'listAppeals' | 'transitionAppeal' | 'findAppealDecision' | 'appealHistory' | 'recordAppealSlaBreach' | 'appealsSince'
>;

/**
 * Appeals on SQLite (schema migration 11). A transition is one write transaction: the
 * compare-and-set on the appeal, its audit event and, when it resolves the appeal, the sanction's
 * lift and feed events, the reporters' counts and the effects, all or nothing.
 */
export function sqliteAppeals(db: Database.Database, sanctions: ReturnType<typeof sqliteSanctions>, uncountApproval: (caseId: string) => void): AppealMethods {
  const q = {
    insert: db.prepare(
      `INSERT INTO appeals (id, sanction_id, user_id, case_id, category, sanction_moderator_id, automated, statement, state, claimed_by, version,
         created_at, updated_at, decided_at, decided_by, decision_reason, sla_breached)
       VALUES (@id, @sanctionId, @userId, @caseId, @category, @sanctionModeratorId, @automated, @statement, 'open', NULL, 1, @at, @at, NULL, NULL, NULL, 0)`,
    ),
    get: db.prepare<[string], AppealRow>(`SELECT * FROM appeals WHERE id = ?`),
    ofSanction: db.prepare<[string], AppealRow>(`SELECT * FROM appeals WHERE sanction_id = ?`),
    cas: db.prepare(
      `UPDATE appeals SET state = ?, claimed_by = ?, version = version + 1, updated_at = ?,
         decided_at = COALESCE(?, decided_at), decided_by = COALESCE(?, decided_by), decision_reason = COALESCE(?, decision_reason)
       WHERE id = ? AND version = ? AND state = ?`,
    ),
    insertEvent: db.prepare(
      `INSERT INTO appeal_events (appeal_id, decision_id, action, moderator_id, from_state, to_state, reason, at, result)
       VALUES (@appealId, @decisionId, @action, @moderatorId, @fromState, @toState, @reason, @at, @result)`,
    ),
    findDecision: db.prepare<[string], AppealEventRow>(`SELECT * FROM appeal_events WHERE decision_id = ?`),
    history: db.prepare<[string], AppealEventRow>(`SELECT * FROM appeal_events WHERE appeal_id = ? ORDER BY seq`),
    breach: db.prepare(`UPDATE appeals SET sla_breached = 1 WHERE id = ? AND sla_breached = 0`),
    since: db.prepare<[number, number], AppealRow>(
      `SELECT * FROM appeals WHERE created_at >= ? UNION SELECT * FROM appeals WHERE decided_at >= ? ORDER BY created_at, id`,
    ),
  };

  const event = (e: Omit<AppealEvent, 'result'> & { result: unknown }) => q.insertEvent.run({ ...e, result: JSON.stringify(e.result ?? null) });

  // Looked up inside the write transaction (BEGIN IMMEDIATE), so two racing submissions find the
  // first one's appeal; the unique index on sanction_id stands behind it.
  const create = db.transaction((a: NewAppeal): { appeal: AppealRecord; created: boolean } => {
    const existing = q.ofSanction.get(a.sanctionId);
    if (existing) return { appeal: toAppeal(existing), created: false };
    q.insert.run({ ...a, automated: a.automated ? 1 : 0 });
    event({ appealId: a.id, decisionId: `submit-${a.id}`, action: 'submit', moderatorId: null, fromState: null, toState: 'open', reason: null, at: a.at, result: null });
    sanctions.recordEffects(a.id, a.effects, a.at);
    return { appeal: toAppeal(q.get.get(a.id)!), created: true };
  });

  const transition = db.transaction((t: AppealTransition, now: number): AppealRecord | null => {
    const before = q.get.get(t.appealId);
    if (!before) return null;
    const r = t.resolution;
    const changed = q.cas.run(
      t.next.state,
      t.next.claimedBy,
      now,
      r ? t.event.at : null,
      r ? t.event.moderatorId : null,
      r ? r.reason : null,
      t.appealId,
      t.expectedVersion,
      t.expectedState,
    ).changes;
    if (changed === 0) return null;
    event({ appealId: t.appealId, ...t.event, fromState: t.expectedState, toState: t.next.state });
    if (r?.outcome === 'overturned') {
      const sanction = sanctions.liftForAppeal(before.sanction_id, t.event.moderatorId, r.reason, t.event.at);
      // The approval counted for the case's reporters no longer does (as an undo), unless an undo
      // or a lift already ended the sanction (an undo took the count back itself).
      if (sanction && sanction.state !== 'lifted' && sanction.caseId !== null) uncountApproval(sanction.caseId);
    }
    if (r) sanctions.appealResolved(before.sanction_id, { id: t.appealId, outcome: r.outcome, reason: r.reason }, t.event.at);
    sanctions.recordEffects(t.event.decisionId, t.effects, t.event.at);
    return toAppeal(q.get.get(t.appealId)!);
  });

  const listStatements = new Map<string, Database.Statement<unknown[], AppealRow>>();
  const prepared = (sql: string) => {
    let s = listStatements.get(sql);
    if (!s) listStatements.set(sql, (s = db.prepare<unknown[], AppealRow>(sql)));
    return s;
  };

  return {
    async createAppeal(a) {
      return create.immediate(a);
    },
    async getAppeal(id) {
      const row = q.get.get(id);
      return row ? toAppeal(row) : null;
    },
    async listAppeals(query: AppealQuery) {
      if (query.limit <= 0 || query.states.length === 0) return [];
      const where = [`state IN (${query.states.map(() => '?').join(', ')})`];
      const params: unknown[] = [...query.states];
      for (const [column, value] of [
        ['category', query.category],
        ['user_id', query.userId],
        ['case_id', query.caseId],
        ['sanction_id', query.sanctionId],
      ] as const) {
        if (value === undefined) continue;
        where.push(`${column} = ?`);
        params.push(value);
      }
      if (query.after) {
        where.push(`(created_at > ? OR (created_at = ? AND id > ?))`);
        params.push(query.after.createdAt, query.after.createdAt, query.after.id);
      }
      return prepared(`SELECT * FROM appeals WHERE ${where.join(' AND ')} ORDER BY created_at, id LIMIT ?`)
        .all(...params, query.limit)
        .map(toAppeal);
    },
    async transitionAppeal(t) {
      return transition.immediate(t, Date.now());
    },
    async findAppealDecision(decisionId) {
      const row = q.findDecision.get(decisionId);
      return row ? toAppealEvent(row) : null;
    },
    async appealHistory(appealId) {
      return q.history.all(appealId).map(toAppealEvent);
    },
    async recordAppealSlaBreach(appealId) {
      return q.breach.run(appealId).changes > 0;
    },
    async appealsSince(since) {
      return q.since.all(since, since).map(toAppeal);
    },
  };
}
