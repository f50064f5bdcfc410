import type Database from 'better-sqlite3';
import type { StatementOfReasons } from '@rm/contracts';
import type { Store } from '@rm/storage';
import { withoutSync } from './durability.js';
import { effectCreatedAt } from '@rm/storage/adapter';
import type {
  AppealOutcome,
  EffectRecord,
  LadderNote,
  NewEffect,
  SanctionActivation,
  SanctionBatch,
  SanctionEnd,
  SanctionEvent,
  SanctionEventType,
  SanctionEvidence,
  SanctionRecord,
  SanctionSource,
  SanctionState,
  SanctionSummary,
  SanctionTally,
  StoredSanction,
} from '@rm/storage';

export interface SanctionRow {
  id: string;
  user_id: string;
  case_id: string | null;
  kind: string;
  blocks_login: number;
  category: string | null;
  source_type: string;
  source_id: string;
  idempotency_key: string | null;
  effective_at: number | null;
  ladder: string | null;
  evidence: string;
  reason: string | null;
  moderator_id: string;
  /** Migration 15: a trusted system's key's bound moderator. */
  bound_moderator_id: string | null;
  created_at: number;
  expires_at: number | null;
  state: SanctionState;
  lifted_at: number | null;
  lifted_by: string | null;
  lift_reason: string | null;
  statement: string | null;
}
type SummaryRow = Pick<SanctionRow, 'id' | 'case_id' | 'kind' | 'blocks_login' | 'category' | 'state' | 'created_at' | 'effective_at' | 'expires_at'>;

const toSummary = (r: SummaryRow): SanctionSummary => ({
  id: r.id,
  caseId: r.case_id,
  kind: r.kind,
  blocksLogin: r.blocks_login === 1,
  category: r.category,
  state: r.state,
  createdAt: r.created_at,
  effectiveAt: r.effective_at,
  expiresAt: r.expires_at,
});

export const toSanction = (r: SanctionRow): SanctionRecord => ({
  ...toSummary(r),
  userId: r.user_id,
  source: { type: r.source_type, id: r.source_id },
  idempotencyKey: r.idempotency_key,
  ladder: r.ladder === null ? null : (JSON.parse(r.ladder) as LadderNote),
  evidence: JSON.parse(r.evidence) as SanctionEvidence[],
  reason: r.reason,
  moderatorId: r.moderator_id,
  boundModeratorId: r.bound_moderator_id,
  liftedAt: r.lifted_at,
  liftedBy: r.lifted_by,
  liftReason: r.lift_reason,
  statement: r.statement === null ? null : (JSON.parse(r.statement) as StatementOfReasons),
});

interface FeedRow {
  seq: number;
  type: SanctionEventType;
  sanction_id: string;
  user_id: string;
  case_id: string | null;
  kind: string;
  expires_at: number | null;
  at: number;
  /** Migration 11 (appeals): a lift's cause, an appeal.resolved event's outcome (JSON). */
  cause: 'appeal' | null;
  appeal: string | null;
  statement: string | null;
}
const toFeedEvent = (r: FeedRow): SanctionEvent => ({
  seq: r.seq,
  type: r.type,
  sanctionId: r.sanction_id,
  userId: r.user_id,
  caseId: r.case_id,
  kind: r.kind,
  expiresAt: r.expires_at,
  at: r.at,
  ...(r.cause !== null && { cause: r.cause }),
  ...(r.appeal !== null && { appeal: JSON.parse(r.appeal) as AppealOutcome }),
  statement: r.statement === null ? null : (JSON.parse(r.statement) as StatementOfReasons),
});

interface EffectRow {
  id: string;
  source_id: string;
  kind: string;
  payload: string;
  created_at: number;
  done_at: number | null;
}
const toEffect = (r: EffectRow): EffectRecord => ({
  id: r.id,
  sourceId: r.source_id,
  kind: r.kind,
  payload: JSON.parse(r.payload) as unknown,
  createdAt: r.created_at,
  doneAt: r.done_at,
});

interface InsertRow {
  id: string;
  userId: string;
  caseId: string | null;
  kind: string;
  blocksLogin: 0 | 1;
  category: string | null;
  sourceType: string;
  sourceId: string;
  idempotencyKey: string | null;
  effectiveAt: number | null;
  ladder: string | null;
  evidence: string;
  reason: string | null;
  moderatorId: string;
  boundModeratorId: string | null;
  at: number;
  expiresAt: number | null;
  state: SanctionState;
  statement: string | null;
}

/**
 * Sanctions, their feed and the effects outbox on SQLite. The write helpers run inside the
 * caller's transaction (a decision's, or a lift's / expiry's own), so the change, its feed event
 * and its effects commit together. SQLite has one writer at a time, so the feed's autoincrement
 * seq is assigned in commit order.
 */
type SanctionMethods = Pick<
  Store,
    | 'sanctionsOfUser'
  | 'sanctionSummariesOfUser'
  | 'sanctionTallyOfUser'
  | 'getSanction'
  | 'liftSanction'
  | 'expireSanction'
  | 'dueSanctions'
  | 'bannedUserIds'
  | 'sanctionFeed'
  | 'sanctionEventsOf'
  | 'createSanctions'
  | 'dueScheduledSanctions'
  | 'activateSanctions'
  | 'pendingEffectsOf'
  | 'pendingEffects'
  | 'completeEffects'
  | 'pruneEffects'
>;

/** `later`: the group commit's ride for bookkeeping writes (group-commit.ts). */
export function sqliteSanctions(db: Database.Database, later: <T>(work: () => T) => Promise<T>) {
  const q = {
    insert: db.prepare<[InsertRow]>(
      `INSERT INTO sanctions (id, user_id, case_id, kind, blocks_login, category, source_type, source_id, idempotency_key, effective_at, ladder,
         evidence, reason, moderator_id, bound_moderator_id, created_at, expires_at, state, lifted_at, lifted_by, lift_reason, statement)
       VALUES (@id, @userId, @caseId, @kind, @blocksLogin, @category, @sourceType, @sourceId, @idempotencyKey, @effectiveAt, @ladder,
         @evidence, @reason, @moderatorId, @boundModeratorId, @at, @expiresAt, @state, NULL, NULL, NULL, @statement)`,
    ),
    // A key is its creator's own: through sanctions_by_idempotency_key (moderator_id, idempotency_key).
    byKey: db.prepare<[string, string], SanctionRow>(`SELECT * FROM sanctions WHERE moderator_id = ? AND idempotency_key = ?`),
    scheduled: db.prepare<[number, number], SanctionRow>(`SELECT * FROM sanctions WHERE state = 'scheduled' AND effective_at <= ? ORDER BY effective_at, id LIMIT ?`),
    activate: db.prepare(`UPDATE sanctions SET state = 'active' WHERE id = ? AND state = 'scheduled'`),
    get: db.prepare<[string], SanctionRow>(`SELECT * FROM sanctions WHERE id = ?`),
    activeOfCase: db.prepare<[string], SanctionRow>(`SELECT * FROM sanctions WHERE case_id = ? AND state = 'active'`),
    ofUser: db.prepare<[string], SanctionRow>(`SELECT * FROM sanctions WHERE user_id = ? ORDER BY created_at DESC, id DESC`),
    summariesOfUser: db.prepare<[string], SummaryRow>(
      `SELECT id, case_id, kind, blocks_login, category, state, created_at, effective_at, expires_at FROM sanctions WHERE user_id = ? ORDER BY created_at DESC, id DESC`,
    ),
    // The states travel as a JSON array; an absent category or case is NULL. The planner would
    // rather walk sanctions_by_user (already in order) through the player's whole history.
    summariesInStates: db.prepare<[{ userId: string; states: string; category: string | null; caseId: string | null }], SummaryRow>(
      `SELECT id, case_id, kind, blocks_login, category, state, created_at, effective_at, expires_at FROM sanctions INDEXED BY sanctions_by_user_state
       WHERE user_id = @userId AND state IN (SELECT value FROM json_each(@states)) AND (@category IS NULL OR category = @category) AND (@caseId IS NULL OR case_id = @caseId)
       ORDER BY created_at DESC, id DESC`,
    ),
    tallyOfUser: db.prepare<[string], SanctionTally>(
      `SELECT COALESCE(SUM(state = 'active'), 0) AS active, COALESCE(SUM(state IN ('expired', 'lifted')), 0) AS ended,
         COALESCE(SUM(state = 'active' AND blocks_login = 1), 0) AS banning
       FROM sanctions WHERE user_id = ?`,
    ),
    end: db.prepare(`UPDATE sanctions SET state = ?, lifted_at = ?, lifted_by = ?, lift_reason = ? WHERE id = ? AND state = ?`),
    due: db.prepare<[number, number], SanctionRow>(
      `SELECT * FROM sanctions WHERE state = 'active' AND expires_at IS NOT NULL AND expires_at <= ? ORDER BY expires_at, id LIMIT ?`,
    ),
    // Through sanctions_by_user, from afterUserId on: a page costs its own rows, not the table.
    bannedUsers: db
      .prepare<[string, number], string>(`SELECT DISTINCT user_id FROM sanctions WHERE state = 'active' AND blocks_login = 1 AND user_id > ? ORDER BY user_id LIMIT ?`)
      .pluck(),
    isBanned: db.prepare<[string], number>(`SELECT 1 FROM sanctions WHERE user_id = ? AND state = 'active' AND blocks_login = 1 LIMIT 1`).pluck(),
    insertEvent: db.prepare(
      `INSERT INTO sanction_events (type, sanction_id, user_id, case_id, kind, expires_at, at, cause, appeal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    // A creation event with its sanction's statement (by the sanction's primary key); other events without.
    feed: db.prepare<[number, number], FeedRow>(
      `SELECT e.*, CASE WHEN e.type = 'sanction.created' THEN (SELECT s.statement FROM sanctions s WHERE s.id = e.sanction_id) END AS statement FROM sanction_events e WHERE e.seq > ? ORDER BY e.seq LIMIT ?`,
    ),
    eventsOf: db.prepare<[string], FeedRow>(
      `SELECT e.*, CASE WHEN e.type = 'sanction.created' THEN (SELECT s.statement FROM sanctions s WHERE s.id = e.sanction_id) END AS statement FROM sanction_events e WHERE e.sanction_id = ? ORDER BY e.seq`,
    ),
    insertEffect: db.prepare(
      `INSERT INTO effects (id, source_id, kind, payload, created_at, done_at) VALUES (?, ?, ?, ?, ?, NULL) ON CONFLICT (id) DO NOTHING`,
    ),
    pendingOf: db.prepare<[string], EffectRow>(`SELECT * FROM effects WHERE source_id = ? AND done_at IS NULL ORDER BY created_at, rowid`),
    pending: db.prepare<[number, number], EffectRow>(`SELECT * FROM effects WHERE done_at IS NULL AND created_at <= ? ORDER BY created_at, id LIMIT ?`),
    complete: db.prepare(`UPDATE effects SET done_at = ? WHERE id = ? AND done_at IS NULL`),
    prune: db.prepare<[number, number]>(
      `DELETE FROM effects WHERE rowid IN (SELECT rowid FROM effects WHERE done_at IS NOT NULL AND done_at < ? ORDER BY done_at LIMIT ?)`,
    ),
  };

  /** A feed event names only these of its sanction: a decision's writes need not read the row back for them. */
  type EventSubject = Pick<SanctionRecord, 'id' | 'userId' | 'caseId' | 'kind' | 'expiresAt'>;
  const subjectOf = (r: SanctionRow): EventSubject => ({ id: r.id, userId: r.user_id, caseId: r.case_id, kind: r.kind, expiresAt: r.expires_at });
  const event = (type: SanctionEventType, s: EventSubject, at: number, extra: { cause?: 'appeal' | undefined; appeal?: AppealOutcome } = {}) =>
    q.insertEvent.run(type, s.id, s.userId, s.caseId, s.kind, s.expiresAt, at, extra.cause ?? null, extra.appeal ? JSON.stringify(extra.appeal) : null);
  const recordEffects = (sourceId: string, effects: NewEffect[] | undefined, at: number) => {
    for (const e of effects ?? []) q.insertEffect.run(e.id, sourceId, e.kind, JSON.stringify(e.payload ?? null), effectCreatedAt(e, at));
  };

  /** In a transaction: ends an active sanction (lifted or expired) with its feed event and effects; false if it was not active. */
  const endNow = (state: 'lifted' | 'expired', end: SanctionEnd): boolean => {
    const before = q.get.get(end.sanctionId);
    const lifted = state === 'lifted';
    // A scheduled sanction (a wave not effective yet) can be lifted, never expired: it was never
    // in the feed, so its lift is not either.
    const scheduled = before?.state === 'scheduled' && lifted;
    if (!before || (before.state !== 'active' && !scheduled)) return false;
    if (state === 'expired' && (before.expires_at === null || before.expires_at > end.at)) return false;
    q.end.run(state, lifted ? end.at : null, lifted ? (end.moderatorId ?? null) : null, lifted ? (end.reason ?? null) : null, end.sanctionId, before.state);
    if (!scheduled) event(lifted ? 'sanction.lifted' : 'sanction.expired', subjectOf(before), end.at, { cause: end.cause });
    recordEffects(end.sourceId, end.effects, end.at);
    return true;
  };
  // A lift or an expiry of its own answers the sanction as it is now.
  const endTx = db.transaction((state: 'lifted' | 'expired', end: SanctionEnd): SanctionRecord | null =>
    endNow(state, end) ? toSanction(q.get.get(end.sanctionId)!) : null,
  );
  const completeAll = (ids: string[], at: number) => {
    for (const id of ids) q.complete.run(at, id);
  };
  /** Inserts a sanction and, when it is effective now, its feed event. */
  const insert = (row: InsertRow): void => {
    q.insert.run(row);
    if (row.state === 'active') event('sanction.created', row, row.at);
  };
  // Checked inside the write transaction (BEGIN IMMEDIATE: one writer at a time), so two requests
  // racing with the same key find the first one's sanction: never a second. The unique index on
  // (creator, key) stands behind it.
  const createBatch = db.transaction((b: SanctionBatch): StoredSanction[] => {
    return b.items.map((item) => {
      const existing = q.byKey.get(item.moderatorId, item.idempotencyKey);
      if (existing) return { sanction: toSanction(existing), created: false };
      insert({
        id: item.id,
        userId: item.userId,
        caseId: null,
        kind: item.kind,
        blocksLogin: item.blocksLogin ? 1 : 0,
        category: item.category,
        sourceType: item.source.type,
        sourceId: item.source.id,
        idempotencyKey: item.idempotencyKey,
        effectiveAt: b.effectiveAt,
        ladder: null,
        evidence: JSON.stringify(item.evidence),
        reason: item.reason,
        moderatorId: item.moderatorId,
        boundModeratorId: item.boundModeratorId ?? null,
        at: b.at,
        expiresAt: item.expiresAt,
        state: b.effectiveAt === null ? 'active' : 'scheduled',
        statement: JSON.stringify(item.statement),
      });
      if (b.effectiveAt === null) recordEffects(b.sourceId, item.effects, b.at);
      return { sanction: toSanction(q.get.get(item.id)!), created: true };
    });
  });
  const activateTx = db.transaction((a: SanctionActivation): SanctionRecord[] => {
    const activated: SanctionRecord[] = [];
    for (const item of a.items) {
      if (q.activate.run(item.sanctionId).changes === 0) continue;
      const s = toSanction(q.get.get(item.sanctionId)!);
      event('sanction.created', s, a.at);
      recordEffects(a.sourceId, item.effects, a.at);
      activated.push(s);
    }
    return activated;
  });

  return {
    /** In the decision's transaction: the approval's sanction and its feed event. */
    create(s: {
      id: string;
      userId: string;
      caseId: string;
      kind: string;
      blocksLogin: boolean;
      category: string | null;
      source: SanctionSource;
      ladder: LadderNote | null;
      statement: StatementOfReasons | null;
      reason: string | null;
      moderatorId: string;
      at: number;
      expiresAt: number | null;
    }): void {
      insert({
        id: s.id,
        userId: s.userId,
        caseId: s.caseId,
        kind: s.kind,
        blocksLogin: s.blocksLogin ? 1 : 0,
        category: s.category,
        sourceType: s.source.type,
        sourceId: s.source.id,
        idempotencyKey: null,
        effectiveAt: null,
        ladder: s.ladder ? JSON.stringify(s.ladder) : null,
        evidence: '[]',
        reason: s.reason,
        moderatorId: s.moderatorId,
        boundModeratorId: null,
        at: s.at,
        expiresAt: s.expiresAt,
        state: 'active',
        statement: s.statement === null ? null : JSON.stringify(s.statement),
      });
    },
    /** In the decision's transaction: the undo of an approval lifts that case's sanction only. */
    liftOfCase(caseId: string, moderatorId: string, at: number): void {
      const active = q.activeOfCase.get(caseId);
      if (active) endNow('lifted', { sanctionId: active.id, at, moderatorId, reason: null, sourceId: active.id, effects: [] });
    },
    recordEffects,
    /** In an appeal's transaction: lifts the sanction if it is active (cause `appeal`); the sanction as it was before. */
    liftForAppeal(sanctionId: string, moderatorId: string, reason: string, at: number): SanctionRecord | null {
      const before = q.get.get(sanctionId);
      if (!before) return null;
      endNow('lifted', { sanctionId, at, moderatorId, reason, cause: 'appeal', sourceId: sanctionId, effects: [] });
      return toSanction(before);
    },
    /** In an appeal's transaction: the `appeal.resolved` feed event of its sanction. */
    appealResolved(sanctionId: string, appeal: AppealOutcome, at: number): void {
      const row = q.get.get(sanctionId);
      if (row) event('appeal.resolved', subjectOf(row), at, { appeal });
    },
    isBanned: (userId: string) => q.isBanned.get(userId) !== undefined,
    /** The port's sanction and outbox methods. */
    methods: {
      async sanctionsOfUser(userId) {
        return q.ofUser.all(userId).map(toSanction);
      },
      async sanctionSummariesOfUser(userId, filter) {
        if (!filter) return q.summariesOfUser.all(userId).map(toSummary);
        const { states, category = null, caseId = null } = filter;
        return q.summariesInStates.all({ userId, states: JSON.stringify(states), category, caseId }).map(toSummary);
      },
      async sanctionTallyOfUser(userId) {
        return q.tallyOfUser.get(userId)!;
      },
      async getSanction(id) {
        const row = q.get.get(id);
        return row ? toSanction(row) : null;
      },
      async liftSanction(end) {
        return endTx.immediate('lifted', end);
      },
      async expireSanction(end) {
        return endTx.immediate('expired', end);
      },
      async dueSanctions(at, limit) {
        return q.due.all(at, limit).map(toSanction);
      },
      async bannedUserIds(afterUserId, limit) {
        return q.bannedUsers.all(afterUserId, limit);
      },
      async sanctionFeed(after, limit) {
        return q.feed.all(after, limit).map(toFeedEvent);
      },
      async sanctionEventsOf(sanctionId) {
        return q.eventsOf.all(sanctionId).map(toFeedEvent);
      },
      async createSanctions(batch) {
        return createBatch.immediate(batch);
      },
      async dueScheduledSanctions(at, limit) {
        return q.scheduled.all(at, limit).map(toSanction);
      },
      async activateSanctions(activation) {
        return activateTx.immediate(activation);
      },
      async pendingEffectsOf(sourceId) {
        return q.pendingOf.all(sourceId).map(toEffect);
      },
      async pendingEffects(createdBefore, limit) {
        return q.pending.all(createdBefore, limit).map(toEffect);
      },
      async completeEffects(ids, at) {
        // Bookkeeping: lost in a crash, an effect runs again, and every effect is idempotent.
        await later(() => completeAll(ids, at));
      },
      async pruneEffects(doneBefore, limit) {
        // Lost in a power cut, the rows are pruned again next time.
        return withoutSync(db, () => q.prune.run(doneBefore, Math.max(0, limit)).changes);
      },
    } satisfies SanctionMethods,
  };
}
