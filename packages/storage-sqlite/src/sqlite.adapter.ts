import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { answeringStoreFull, DuplicateError, OpenCaseConflictError } from '@rm/storage';
import type {
  ApiKeyRecord,
  CaseEvent,
  CaseMessageRecord,
  CaseRecord,
  ChatMessageRecord,
  DeliveryRecord,
  ModeratorRecord,
  NewReport,
  Page,
  ReportRecord,
  SavedReport,
  Transition,
  UserRecord,
  ReporterRecord,
} from '@rm/storage';
import type { Store } from '@rm/storage';
import {
  toApiKey,
  toCase,
  toCaseMessage,
  toDelivery,
  toEvent,
  toMessage,
  REPORT_COLUMNS,
  toReport,
  toUser,
  type ApiKeyRow,
  type CaseMessageRow,
  type CaseRow,
  type DeliveryRow,
  type EventRow,
  type MessageRow,
  type ReportRow,
  type UserRow,
} from './rows.js';
import { SYNCHRONOUS } from './durability.js';
import { sqliteSanctions } from './sanctions.js';
import { sqliteTransparency } from './transparency.js';
import { approvalSanction } from '@rm/storage/adapter';
import { MIGRATIONS } from './schema.js';
import { sqliteQueueHealth } from './queue-health.js';
import { sqliteTriage } from './triage.js';
import { sqliteEvidence } from './evidence.js';
import { sqliteReporterOutcomes } from './reporter-outcomes.js';
import { sqliteAppeals } from './appeals.js';
import { checkpointInBackground } from './checkpoints.js';
import { groupCommit } from './group-commit.js';
import { sqlitePrivacy } from './privacy.js';
import { sqliteRetention } from './retention.js';
import { isSqliteFull } from './store-full.js';

const OPEN = `state IN ('open', 'claimed')`;
/** A case's reports, bound twice to the case id. */
const OF_CASE = `user_id = (SELECT user_id FROM cases WHERE id = ?) AND case_id = ?`;

/** Whether `err` is a SQLite error of `family` (its primary code, e.g. `SQLITE_BUSY`, or one of its extended codes). */
function isSqliteError(err: unknown, family: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code?.startsWith(family) === true;
}

function isUniqueViolation(err: unknown): boolean {
  return isSqliteError(err, 'SQLITE_CONSTRAINT');
}

/** How long opening the file waits for another process's lock (its switch to WAL, a migration). */
const OPEN_BUSY_TIMEOUT_MS = 30_000;

/**
 * Switching a new file to WAL reads its header, then upgrades to a write; SQLite answers BUSY at
 * once, without its busy handler, when another process holds the write lock then (it is switching
 * the file too), so the switch is retried here until the opening timeout.
 */
function switchToWal(db: Database.Database): void {
  const deadline = Date.now() + OPEN_BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      // Any BUSY: a process recovering the file after a crash answers SQLITE_BUSY_RECOVERY.
      if (!isSqliteError(err, 'SQLITE_BUSY') || Date.now() >= deadline) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10); // a synchronous 10 ms pause
    }
  }
}

/** Applies the migrations the file lacks, one write transaction each; `onMigrated` hears each number (1-based). */
function migrate(db: Database.Database, onMigrated?: (n: number) => void): void {
  for (;;) {
    // Re-read inside the write lock: two processes opening a new file must not both migrate.
    const applied = db
      .transaction(() => {
        const current = db.pragma('user_version', { simple: true }) as number;
        if (current >= MIGRATIONS.length) return null;
        db.exec(MIGRATIONS[current]!);
        db.pragma(`user_version = ${current + 1}`);
        return current + 1;
      })
      .immediate();
    if (applied === null) return;
    onMigrated?.(applied);
  }
}

/**
 * The embedded store: one SQLite file in WAL mode, shared by the gateway, the workers and the CLI
 * (each process opens its own connection; SQLite serialises writers, busy_timeout waits them out).
 */
export function openSqliteStore(file: string, options: { busyTimeoutMs?: number; onMigrated?: (n: number) => void; checkpointPages?: number } = {}): Store {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  // Opening waits longer than a write does: processes starting together on a new file take turns
  // switching it to WAL and migrating it, and one that gave up would fail to start at all.
  db.pragma(`busy_timeout = ${OPEN_BUSY_TIMEOUT_MS}`);
  switchToWal(db);
  // FULL: a commit is on disk before it returns, so an intake job is marked complete (and a
  // decision announced) only once what it stored survives a power cut. NORMAL in WAL mode could
  // lose the last commits; the cost is measured in docs/performance-log.md ("Durable commits"). Bookkeeping that is redone
  // or recomputed after a loss commits without the wait (durability.ts); the group commit syncs
  // its WAL off the event loop before it answers (group-commit.ts).
  db.pragma(`synchronous = ${SYNCHRONOUS}`);
  db.pragma('foreign_keys = ON');
  // The savepoints' sub-journals in memory: on the default (a file) every group commit whose
  // savepoints saved more than 64 KiB of pages created, wrote, closed and deleted a temporary file
  // (docs/performance.md). They hold copies of pages a savepoint changed, so they stay small.
  db.pragma('temp_store = MEMORY');
  // Erased data must be gone from the file, not only from the rows (docs/privacy.md): what an
  // update or delete frees is overwritten with zeros instead of lingering in free space.
  db.pragma('secure_delete = ON');
  migrate(db, options.onMigrated);
  // better-sqlite3 waits synchronously: a long wait stalls the process, so it stays short and the
  // job retry (with backoff) does the rest.
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5_000))}`);
  // Every ~40 MB of WAL instead of 4 MB: a checkpoint copies each changed page once however often
  // it changed, so rarer checkpoints write (and fsync) far less per stored report. Off the event
  // loop (checkpoints.ts).
  const checkpoints = checkpointInBackground(db, file, options.checkpointPages);

  const q = {
    insertKey: db.prepare(
      `INSERT INTO api_keys (key, name, secret_hash, permissions, elevated, admin, rate_limit, created_at, revoked_at, moderator_id)
       VALUES (@key, @name, @secretHash, @permissions, @elevated, @admin, @rateLimit, @createdAt, @revokedAt, @moderatorId)`,
    ),
    getKey: db.prepare<[string], ApiKeyRow>(`SELECT * FROM api_keys WHERE key = ?`),
    listKeys: db.prepare<[], ApiKeyRow>(`SELECT * FROM api_keys ORDER BY created_at, key`),
    revokeKey: db.prepare(`UPDATE api_keys SET revoked_at = ? WHERE key = ? AND revoked_at IS NULL`),
    insertUser: db.prepare(`INSERT INTO users (id, name, display_name, avatar) VALUES (@id, @name, @displayName, @avatar)`),
    getUser: db.prepare<[string], UserRow>(`SELECT * FROM users WHERE id = ?`),
    insertModerator: db.prepare(`INSERT INTO moderators (id, username, created_at) VALUES (@id, @username, @createdAt)`),
    saveModerator: db.prepare(`INSERT INTO moderators (id, username, created_at) VALUES (@id, @username, @createdAt) ON CONFLICT (id) DO UPDATE SET username = excluded.username`),
    getModerator: db.prepare<[string], ModeratorRecord>(`SELECT id, username, created_at AS createdAt FROM moderators WHERE id = ?`),
    listModerators: db.prepare<[], ModeratorRecord>(`SELECT id, username, created_at AS createdAt FROM moderators ORDER BY id`),
    reportCase: db.prepare<[string], { case_id: string }>(`SELECT case_id FROM reports WHERE id = ?`),
    openCase: db.prepare<[string], CaseRow>(`SELECT * FROM cases WHERE user_id = ? AND ${OPEN}`),
    openCaseId: db.prepare<[string], string>(`SELECT id FROM cases WHERE user_id = ? AND ${OPEN}`).pluck(),
    insertCase: db.prepare(
      `INSERT INTO cases (id, user_id, state, claimed_by, version, created_at, updated_at) VALUES (?, ?, 'open', NULL, 1, ?, ?)`,
    ),
    insertReport: db.prepare(
      `INSERT INTO reports (id, case_id, user_id, reporter_id, reporter_platform, report_type, answers, evidence, received_at,
         user_name, user_display_name, user_avatar)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    getReport: db.prepare<[string], ReportRow>(`SELECT ${REPORT_COLUMNS} FROM reports WHERE id = ?`).raw(),
    countByUser: db.prepare<[string], { n: number }>(`SELECT reports AS n FROM user_report_counts WHERE user_id = ?`),
    countReport: db.prepare(
      `INSERT INTO user_report_counts (user_id, reports) VALUES (?, 1) ON CONFLICT(user_id) DO UPDATE SET reports = reports + 1`,
    ),
    listByUser: db
      .prepare<[string, number, number], ReportRow>(`SELECT ${REPORT_COLUMNS} FROM reports WHERE user_id = ? ORDER BY received_at DESC, id DESC LIMIT ? OFFSET ?`)
      .raw(),
    getCase: db.prepare<[string], CaseRow>(`SELECT * FROM cases WHERE id = ?`),
    // Through reports_by_user_time: there is no index by case (schema migration 4).
    caseReportIds: db.prepare<[string, string], string>(`SELECT id FROM reports WHERE ${OF_CASE} ORDER BY received_at, id`).pluck(),
    caseReporters: db.prepare<[string, string], ReporterRecord>(
      `SELECT DISTINCT reporter_platform AS platform, reporter_id AS id FROM reports WHERE ${OF_CASE} ORDER BY reporter_platform, reporter_id`,
    ),
    casUpdate: db.prepare(
      `UPDATE cases SET state = ?, claimed_by = ?, version = version + 1, updated_at = ? WHERE id = ? AND version = ? AND state = ?`,
    ),
    insertEvent: db.prepare(
      `INSERT INTO case_events (case_id, decision_id, action, moderator_id, from_state, to_state, at, result)
       VALUES (@caseId, @decisionId, @action, @moderatorId, @fromState, @toState, @at, @result)`,
    ),
    findDecision: db.prepare<[string], EventRow>(`SELECT * FROM case_events WHERE decision_id = ?`),
    history: db.prepare<[string], EventRow>(`SELECT * FROM case_events WHERE case_id = ? ORDER BY seq`),
    lastEvent: db.prepare<[string], EventRow>(`SELECT * FROM case_events WHERE case_id = ? ORDER BY seq DESC LIMIT 1`),
    messageByKey: db.prepare<[string], MessageRow>(`SELECT * FROM messages WHERE dedupe_key = ?`),
    insertMessage: db.prepare(
      `INSERT INTO messages (id, channel, kind, content, dedupe_key, created_at) VALUES (@id, @channel, @kind, @content, @dedupeKey, @createdAt)`,
    ),
    // rowid breaks ties within one millisecond by insertion order (id is a random UUID, no order).
    listMessages: db.prepare<[number], MessageRow>(`SELECT * FROM messages ORDER BY created_at DESC, rowid DESC LIMIT ?`),
    editMessage: db.prepare<[string, number, string], MessageRow>(`UPDATE messages SET content = ?, edited_at = ? WHERE id = ? RETURNING *`),
    getCaseMessage: db.prepare<[string], CaseMessageRow>(`SELECT * FROM case_messages WHERE case_id = ?`),
    setCaseMessage: db.prepare(
      `INSERT INTO case_messages (case_id, channel, message_id, updated_at) VALUES (@caseId, @channel, @messageId, @updatedAt)
       ON CONFLICT (case_id) DO UPDATE SET channel = excluded.channel, message_id = excluded.message_id, updated_at = excluded.updated_at`,
    ),
    findDelivery: db.prepare<[string], DeliveryRow>(`SELECT * FROM deliveries WHERE key = ?`),
    // DO NOTHING + the read after it: the first record wins, a concurrent second one reads it.
    insertDelivery: db.prepare(
      `INSERT INTO deliveries (key, external_id, delivered_at) VALUES (@key, @externalId, @deliveredAt) ON CONFLICT (key) DO NOTHING`,
    ),
  };

  // The writes of the decision and chat paths commit in groups (group-commit.ts).
  const { commit, later, close: closeCommits } = groupCommit(db, `${file}-wal`);
  const sanctions = sqliteSanctions(db, later);
  const triage = sqliteTriage(db);
  const outcomes = sqliteReporterOutcomes(db);

  const insertOrDuplicate = (what: string, id: string, run: () => void) => {
    try {
      run();
    } catch (err) {
      if (isUniqueViolation(err)) throw new DuplicateError(what, id);
      throw err;
    }
  };

  const saveOne = (r: NewReport): SavedReport => {
    const existing = q.reportCase.get(r.id);
    if (existing) return { reportId: r.id, caseId: existing.case_id, created: false, openedCase: false };
    let caseId = q.openCaseId.get(r.userId);
    const openedCase = caseId === undefined;
    if (caseId === undefined) {
      caseId = randomUUID();
      q.insertCase.run(caseId, r.userId, r.receivedAt, r.receivedAt);
    }
    // Positional: binding named parameters from an object costs more per row.
    q.insertReport.run(
      r.id,
      caseId,
      r.userId,
      r.reporterId,
      r.reporterPlatform,
      r.reportType,
      JSON.stringify(r.answers),
      JSON.stringify(r.evidence),
      r.receivedAt,
      r.user.name,
      r.user.displayName,
      r.user.avatar,
    );
    q.countReport.run(r.userId);
    return { reportId: r.id, caseId, created: true, openedCase };
  };
  // IMMEDIATE takes the write lock up front, so two processes never both see "no open case".
  const saveMany = db.transaction((reports: NewReport[]) => reports.map(saveOne));
  // One read transaction, so the total and the page agree.
  const listPage = db.transaction((userId: string, page: Page) => ({
    total: q.countByUser.get(userId)?.n ?? 0,
    reports: q.listByUser.all(userId, page.limit, page.offset).map(toReport),
  }));

  const transition = db.transaction((t: Transition, now: number): CaseRecord | null => {
    const before = q.getCase.get(t.caseId);
    if (!before) return null;
    let changed: number;
    try {
      changed = q.casUpdate.run(t.next.state, t.next.claimedBy, now, t.caseId, t.expectedVersion, t.expectedState).changes;
    } catch (err) {
      if (isUniqueViolation(err)) throw new OpenCaseConflictError(before.user_id);
      throw err;
    }
    if (changed === 0) return null;
    q.insertEvent.run({
      caseId: t.caseId,
      decisionId: t.event.decisionId,
      action: t.event.action,
      moderatorId: t.event.moderatorId,
      fromState: t.expectedState,
      toState: t.next.state,
      at: t.event.at,
      result: JSON.stringify(t.event.result ?? null),
    });
    if (t.ban === 'set') {
      sanctions.create({ id: t.event.decisionId, userId: before.user_id, caseId: t.caseId, ...approvalSanction(t), moderatorId: t.event.moderatorId, at: t.event.at });
    }
    if (t.ban === 'lift') sanctions.liftOfCase(t.caseId, t.event.moderatorId, t.event.at);
    sanctions.recordEffects(t.event.decisionId, t.effects, t.event.at);
    if (t.caseMessage) q.setCaseMessage.run(t.caseMessage);
    triage.countDecision(t);
    outcomes.recordOutcomes(t);
    return toCase(q.getCase.get(t.caseId)!);
  });

  const recordMessage = db.transaction((m: Omit<ChatMessageRecord, 'id' | 'createdAt' | 'editedAt'>): ChatMessageRecord => {
    const existing = q.messageByKey.get(m.dedupeKey);
    if (existing) return toMessage(existing);
    const record: ChatMessageRecord = { ...m, id: randomUUID(), createdAt: Date.now(), editedAt: null };
    q.insertMessage.run(record);
    return record;
  });

  const recordDelivery = db.transaction((d: DeliveryRecord): DeliveryRecord => {
    q.insertDelivery.run(d);
    return toDelivery(q.findDelivery.get(d.key)!);
  });

  let closed = false;
  /** After erasing: the write-ahead log checkpointed and truncated, so erased text does not linger in its older frames. */
  const truncateLog = () => {
    // Best effort: a reader holding an old snapshot lets the log be truncated at the next checkpoint instead.
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      /* the next checkpoint does it */
    }
  };
  return answeringStoreFull({
    kind: 'sqlite',
    async createApiKey(k: ApiKeyRecord) {
      insertOrDuplicate('API key', k.key, () =>
        q.insertKey.run({
          ...k,
          permissions: JSON.stringify(k.permissions),
          elevated: k.elevated ? 1 : 0,
          admin: k.admin ? 1 : 0,
          moderatorId: k.moderatorId ?? null,
        }),
      );
    },
    async getApiKey(key) {
      const row = q.getKey.get(key);
      return row ? toApiKey(row) : null;
    },
    async listApiKeys() {
      return q.listKeys.all().map(toApiKey);
    },
    async revokeApiKey(key, at) {
      return q.revokeKey.run(at, key).changes > 0;
    },
    async addUser(u: UserRecord) {
      insertOrDuplicate('user', u.id, () => q.insertUser.run(u));
    },
    async getUser(id) {
      const row = q.getUser.get(id);
      return row ? toUser(row) : null;
    },
    async isBanned(userId) {
      return sanctions.isBanned(userId);
    },
    async addModerator(m) {
      insertOrDuplicate('moderator', m.id, () => q.insertModerator.run(m));
    },
    async saveModerator(m) {
      q.saveModerator.run(m);
    },
    async getModerator(id) {
      return q.getModerator.get(id) ?? null;
    },
    async listModerators() {
      return q.listModerators.all();
    },
    async saveReports(reports) {
      return saveMany.immediate(reports);
    },
    async getReport(id): Promise<ReportRecord | null> {
      const row = q.getReport.get(id);
      return row ? toReport(row) : null;
    },
    async listReportsByUser(userId, page: Page) {
      return listPage(userId, page);
    },
    async getCase(caseId) {
      const row = q.getCase.get(caseId);
      return row ? toCase(row) : null;
    },
    async openCaseOfUser(userId) {
      const row = q.openCase.get(userId);
      return row ? toCase(row) : null;
    },
    async caseReportIds(caseId) {
      return q.caseReportIds.all(caseId, caseId);
    },
    async caseReporters(caseId) {
      return q.caseReporters.all(caseId, caseId);
    },
    async transitionCase(t) {
      const now = Date.now();
      return commit(() => transition(t, now));
    },
    // The outcomes and counts commit with the decision (transition): nothing is ever left over.
    settleDecision: () => Promise.resolve(),
    async findDecision(decisionId): Promise<CaseEvent | null> {
      const row = q.findDecision.get(decisionId);
      return row ? toEvent(row) : null;
    },
    async caseHistory(caseId) {
      return q.history.all(caseId).map(toEvent);
    },
    async lastCaseEvent(caseId) {
      const row = q.lastEvent.get(caseId);
      return row ? toEvent(row) : null;
    },
    async recordMessage(m) {
      return commit(() => recordMessage(m));
    },
    async listMessages(limit) {
      return q.listMessages.all(limit).map(toMessage);
    },
    async editMessage(id, content, at) {
      const row = await commit(() => q.editMessage.get(content, at, id));
      return row ? toMessage(row) : null;
    },
    async getCaseMessage(caseId) {
      const row = q.getCaseMessage.get(caseId);
      return row ? toCaseMessage(row) : null;
    },
    async setCaseMessage(m: CaseMessageRecord) {
      await commit(() => q.setCaseMessage.run(m));
    },
    async findDelivery(key) {
      const row = q.findDelivery.get(key);
      return row ? toDelivery(row) : null;
    },
    async recordDelivery(d) {
      return commit(() => recordDelivery(d));
    },
    ...sqliteQueueHealth(db),
    ...sanctions.methods,
    ...triage.methods,
    ...sqliteEvidence(db),
    ...outcomes.methods,
    ...sqliteAppeals(db, sanctions, triage.uncountApproval),
    ...sqliteTransparency(db),
    ...sqlitePrivacy(db, truncateLog),
    ...sqliteRetention(db, truncateLog),
    async close() {
      if (closed) return;
      closed = true;
      closeCommits();
      checkpoints.close();
      db.close();
    },
  } satisfies Store, isSqliteFull);
}
