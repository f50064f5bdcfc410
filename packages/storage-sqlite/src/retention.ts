import type Database from 'better-sqlite3';
import type { AppealRecord, CaseRecord, RetentionKeptReason, RetentionStep, RetentionStepOutcome, Store } from '@rm/storage';
import {
  CASE_RETENTION,
  decodeRetentionCursor,
  isCaseRetentionKind,
  isPseudonym,
  newPseudonym,
  nextRetentionCursor,
  pseudonymisedResult,
  reportScrubChanged,
  retentionMarkKey,
  scrubbedReport,
  type CaseRetentionKind,
  type RetentionPosition,
} from '@rm/storage/adapter';
import { toAppeal, type AppealRow } from './appeals.js';
import { privacyRules, type HoldsAt } from './privacy-rules.js';
import { REPORT_COLUMNS, toCase, toCaseMessage, toReport, type CaseMessageRow, type CaseRow, type ReportRow } from './rows.js';
import type { SanctionRow } from './sanctions.js';

/** The note on evidence a dismissed case's retention deleted (its audit entry). */
const RETENTION_NOTE = 'retention';

const emptyOutcome = (): RetentionStepOutcome => ({ examined: 0, erased: 0, kept: {}, evidenceItems: 0, unheldBlobs: [], caseMessages: [], erasedIds: [], cursor: null });

/**
 * The retention sweep on the SQLite store (schema migration 18, docs/privacy.md#retention). Decided
 * cases are read by state and decision time along `cases_decided`, from the mark where the last
 * sweep of the kind stopped (`retention_marks`); a case something keeps waits in
 * `retention_waiting` and is read again by every sweep until nothing does. Appeals likewise along
 * `appeals_decided`; the privacy audit by seq. Each step is one IMMEDIATE transaction, rolled back
 * for a dry run; the last step of a kind truncates the write-ahead log, as an erasure does.
 */
export function sqliteRetention(db: Database.Database, checkpoint: () => void): Pick<Store, 'sweepRetention'> {
  const rules = privacyRules(db);
  const q = {
    mark: db.prepare<[string], { at: number; id: string }>(`SELECT at, id FROM retention_marks WHERE key = ?`),
    setMark: db.prepare(`INSERT INTO retention_marks (key, at, id) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET at = excluded.at, id = excluded.id`),
    waiting: db.prepare<[string, string, number], string>(`SELECT id FROM retention_waiting WHERE kind = ? AND id > ? ORDER BY id LIMIT ?`).pluck(),
    wait: db.prepare(`INSERT INTO retention_waiting (kind, id) VALUES (?, ?) ON CONFLICT (kind, id) DO NOTHING`),
    unwait: db.prepare(`DELETE FROM retention_waiting WHERE kind = ? AND id = ?`),
    // cases_decided: one state's decided cases by decision time, after the cursor, before `before`.
    decided: db.prepare<[string, number, string, number, number], CaseRow>(
      `SELECT * FROM cases WHERE state IN ('approved', 'dismissed') AND state = ? AND (updated_at, id) > (?, ?) AND updated_at < ? ORDER BY state, updated_at, id LIMIT ?`,
    ),
    getCase: db.prepare<[string], CaseRow>(`SELECT * FROM cases WHERE id = ?`),
    caseReports: db.prepare<[string, string], ReportRow>(`SELECT ${REPORT_COLUMNS} FROM reports WHERE user_id = ? AND case_id = ? ORDER BY received_at, id`).raw(),
    activeSanction: db.prepare<[string], number>(`SELECT 1 FROM sanctions WHERE case_id = ? AND state = 'active' LIMIT 1`).pluck(),
    waitingAppeal: db.prepare<[string], number>(`SELECT 1 FROM appeals WHERE case_id = ? AND state IN ('open', 'claimed') LIMIT 1`).pluck(),
    // sanctions_by_user: a player's sanctions, those of the case among them (a handful).
    caseSanctions: db.prepare<[string, string], SanctionRow>(`SELECT * FROM sanctions WHERE user_id = ? AND case_id = ?`),
    caseMessage: db.prepare<[string], CaseMessageRow>(`SELECT * FROM case_messages WHERE case_id = ?`),
    scrubReport: db.prepare(`UPDATE reports SET answers = ?, evidence = ?, user_name = ?, user_display_name = ?, user_avatar = ?, reporter_id = ? WHERE id = ?`),
    pseudonymiseOutcome: db.prepare(`UPDATE report_outcomes SET reporter_id = ? WHERE report_id = ?`),
    // A dismissed case's player becomes a pseudonym on its rows.
    caseUser: db.prepare(`UPDATE cases SET user_id = ? WHERE id = ?`),
    reportUser: db.prepare(`UPDATE reports SET user_id = ? WHERE id = ?`),
    reportCount: db.prepare(`UPDATE user_report_counts SET reports = MAX(reports - ?, 0) WHERE user_id = ?`),
    noReports: db.prepare(`DELETE FROM user_report_counts WHERE user_id = ? AND reports = 0`),
    caseEvents: db.prepare<[string], { seq: number; result: string }>(`SELECT seq, result FROM case_events WHERE case_id = ? ORDER BY seq`),
    eventResult: db.prepare(`UPDATE case_events SET result = ? WHERE seq = ?`),
    sanctionUser: db.prepare(`UPDATE sanctions SET user_id = ? WHERE id = ?`),
    feedUser: db.prepare(`UPDATE sanction_events SET user_id = ? WHERE sanction_id = ?`),
    appealUserOfSanction: db.prepare(`UPDATE appeals SET user_id = ? WHERE sanction_id = ?`),
    // appeals_decided: decided appeals by decision time, after the cursor, before `before`.
    decidedAppeals: db.prepare<[number, string, number, number], AppealRow>(
      `SELECT * FROM appeals WHERE decided_at IS NOT NULL AND (decided_at, id) > (?, ?) AND decided_at < ? ORDER BY decided_at, id LIMIT ?`,
    ),
    getAppeal: db.prepare<[string], AppealRow>(`SELECT * FROM appeals WHERE id = ?`),
    auditPage: db.prepare<[number, number], { seq: number; at: number }>(`SELECT seq, at FROM privacy_audit WHERE seq > ? ORDER BY seq LIMIT ?`),
    erasedPlayers: db.prepare<[string, number], { user_id: string; erased_at: number }>(`SELECT * FROM privacy_erased_players WHERE user_id > ? ORDER BY user_id LIMIT ?`),
    forgetErased: db.prepare(`DELETE FROM privacy_erased_players WHERE user_id = ?`),
    // sanctions_by_user: a player's sanctions (a handful); appeals_by_user; cases through the player's reports.
    playerSanctions: db.prepare<[string], SanctionRow>(`SELECT * FROM sanctions WHERE user_id = ?`),
    playerAppealWaiting: db.prepare<[string], number>(`SELECT 1 FROM appeals WHERE user_id = ? AND state IN ('open', 'claimed') LIMIT 1`).pluck(),
    playerCases: db.prepare<[string], CaseRow>(`SELECT * FROM cases WHERE id IN (SELECT DISTINCT case_id FROM reports WHERE user_id = ?)`),
    caseReportIds: db.prepare<[string, string], string>(`SELECT id FROM reports WHERE user_id = ? AND case_id = ?`).pluck(),
    deleteAudit: db.prepare(`DELETE FROM privacy_audit WHERE seq = ?`),
  };

  const keep = (out: RetentionStepOutcome, reason: RetentionKeptReason) => {
    out.kept[reason] = (out.kept[reason] ?? 0) + 1;
  };

  /** Why a decided case must keep its data now, or null. */
  const keptCase = (c: CaseRecord, holds: HoldsAt): RetentionKeptReason | null => {
    if (holds.ofCase(c.id, c.userId)) return 'legal_hold';
    if (q.activeSanction.get(c.id) !== undefined) return 'active_sanction';
    if (q.waitingAppeal.get(c.id) !== undefined) return 'open_appeal';
    return null;
  };

  /** The player's id on a case, its reports and its decisions' answers becomes `player`. */
  const pseudonymiseCase = (c: CaseRecord, reportIds: string[], player: string) => {
    q.caseUser.run(player, c.id);
    for (const id of reportIds) q.reportUser.run(player, id);
    q.reportCount.run(reportIds.length, c.userId);
    q.noReports.run(c.userId);
    for (const e of q.caseEvents.all(c.id)) {
      const result = JSON.stringify(pseudonymisedResult(JSON.parse(e.result), c.userId, player));
      if (result !== e.result) q.eventResult.run(result, e.seq);
    }
  };

  /** The player's id on a sanction, its feed events and its appeal becomes `player`. */
  const pseudonymiseSanction = (sanctionId: string, player: string) => {
    q.sanctionUser.run(player, sanctionId);
    q.feedUser.run(player, sanctionId);
    q.appealUserOfSanction.run(player, sanctionId);
  };

  /** A case loses what `kind` takes; true when anything changed. */
  const retainCase = (kind: CaseRetentionKind, c: CaseRecord, st: RetentionStep, out: RetentionStepOutcome, hashes: Set<string>): boolean => {
    const spec = CASE_RETENTION[kind];
    const reports = q.caseReports.all(c.userId, c.id).map(toReport);
    let changed = false;
    // One pseudonym per reporter of the case: its count of distinct reporters stays.
    const pseudonyms = new Map<string, string>();
    const pseudonymOf = (platform: string, id: string) => {
      const key = `${platform}\u0000${id}`;
      if (!pseudonyms.has(key)) pseudonyms.set(key, newPseudonym());
      return pseudonyms.get(key)!;
    };
    for (const r of reports) {
      const reporter = spec.reporter && !isPseudonym(r.reporterId) ? pseudonymOf(r.reporterPlatform, r.reporterId) : null;
      const next = scrubbedReport(r, { names: spec.names, text: spec.text, reporter }, st.keep);
      if (reportScrubChanged(r, next)) {
        changed = true;
        q.scrubReport.run(JSON.stringify(next.answers), JSON.stringify(next.evidence), next.user.name, next.user.displayName, next.user.avatar, next.reporterId, r.id);
        if (reporter !== null) q.pseudonymiseOutcome.run(reporter, r.id);
      }
      if (spec.text) rules.scrubEvidenceDetails(r.id);
      if (spec.whole) {
        const evidence = rules.deleteReportEvidence(r.id, st.at, RETENTION_NOTE);
        out.evidenceItems += evidence.items;
        for (const sha256 of evidence.hashes) hashes.add(sha256);
        if (evidence.items > 0) changed = true;
      }
    }
    // The case's sanctions have ended (an active one keeps the case): their free text goes with the reports'.
    const sanctions = spec.text || spec.whole ? q.caseSanctions.all(c.userId, c.id) : [];
    if (spec.text) for (const row of sanctions) if (rules.eraseSanction(row)) changed = true;
    if (spec.whole && !isPseudonym(c.userId)) {
      const player = newPseudonym();
      pseudonymiseCase(c, reports.map((r) => r.id), player);
      // A sanction an undone approval set, lifted since: its feed events and appeal name the player too.
      for (const s of sanctions) pseudonymiseSanction(s.id, player);
      changed = true;
    }
    if (spec.message) {
      const message = q.caseMessage.get(c.id);
      if (message) {
        out.caseMessages.push({ ...toCaseMessage(message), state: c.state, reports: reports.length });
        changed = true;
      }
    }
    if (changed) out.erasedIds.push(c.id, ...reports.map((r) => r.id));
    return changed;
  };

  /** A page of decided cases of a case kind: those kept before (waiting), then those decided since the last sweep. */
  const caseStep = (kind: CaseRetentionKind, st: RetentionStep, at: RetentionPosition, out: RetentionStepOutcome): string | null => {
    const holds = rules.holdsAt(st.at);
    const hashes = new Set<string>();
    const states = CASE_RETENTION[kind].states;
    const examine = (c: CaseRecord, waiting: boolean) => {
      const due = states.includes(c.state) && c.updatedAt < st.before;
      if (!due) {
        // Undone since, or decided again: the `new` phase finds it when its time comes.
        if (waiting) q.unwait.run(kind, c.id);
        return;
      }
      out.examined += 1;
      const reason = keptCase(c, holds);
      if (reason !== null) {
        keep(out, reason);
        if (!waiting) q.wait.run(kind, c.id);
        return;
      }
      if (retainCase(kind, c, st, out, hashes)) out.erased += 1;
      if (waiting) q.unwait.run(kind, c.id);
    };
    let cursor: string | null;
    if (at.phase === 'waiting') {
      const ids = q.waiting.all(kind, at.after, st.limit);
      for (const id of ids) {
        const row = q.getCase.get(id);
        if (row) examine(toCase(row), true);
        else q.unwait.run(kind, id);
      }
      cursor = nextRetentionCursor(kind, at, { full: ids.length === st.limit, last: ids.at(-1) });
    } else {
      if (at.phase !== 'new') throw new Error(`a case kind has no ${at.phase} phase`);
      const state = at.state!;
      const key = retentionMarkKey(kind, state);
      const [afterAt, afterId] = at.after ?? markOf(key);
      const rows = q.decided.all(state, afterAt, afterId, st.before, st.limit);
      for (const row of rows) examine(toCase(row), false);
      const last = rows.at(-1);
      if (last) q.setMark.run(key, last.updated_at, last.id);
      cursor = nextRetentionCursor(kind, at, { full: rows.length === st.limit, last: last ? [last.updated_at, last.id] : undefined });
    }
    out.unheldBlobs = [...hashes].filter((sha256) => !rules.stillHeld(sha256));
    return cursor;
  };

  const markOf = (key: string): [number, string] => {
    const mark = q.mark.get(key);
    return mark ? [mark.at, mark.id] : [-1, ''];
  };

  /** A page of decided appeals: those a hold kept before, then those decided since the last sweep. */
  const appealStep = (st: RetentionStep, at: RetentionPosition, out: RetentionStepOutcome): string | null => {
    const holds = rules.holdsAt(st.at);
    const kind = st.kind;
    const examine = (a: AppealRecord, waiting: boolean) => {
      if (a.decidedAt === null || a.decidedAt >= st.before) {
        if (waiting) q.unwait.run(kind, a.id);
        return;
      }
      out.examined += 1;
      if (holds.on([{ type: 'sanction', id: a.sanctionId }]) ?? holds.ofCase(a.caseId, a.userId)) {
        keep(out, 'legal_hold');
        if (!waiting) q.wait.run(kind, a.id);
        return;
      }
      if (rules.eraseAppeal(a)) {
        out.erased += 1;
        out.erasedIds.push(a.id);
      }
      if (waiting) q.unwait.run(kind, a.id);
    };
    if (at.phase === 'waiting') {
      const ids = q.waiting.all(kind, at.after, st.limit);
      for (const id of ids) {
        const row = q.getAppeal.get(id);
        if (row) examine(toAppeal(row), true);
        else q.unwait.run(kind, id);
      }
      return nextRetentionCursor(kind, at, { full: ids.length === st.limit, last: ids.at(-1) });
    }
    const key = retentionMarkKey(kind, null);
    const [afterAt, afterId] = at.phase === 'new' && at.after ? at.after : markOf(key);
    const rows = q.decidedAppeals.all(afterAt, afterId, st.before, st.limit);
    for (const row of rows) examine(toAppeal(row), false);
    const last = rows.at(-1);
    if (last) q.setMark.run(key, last.decided_at!, last.id);
    return nextRetentionCursor(kind, at, { full: rows.length === st.limit, last: last ? [last.decided_at!, last.id] : undefined });
  };

  /** The privacy audit's oldest entries, by seq, up to the first not yet due. */
  const auditStep = (st: RetentionStep, at: RetentionPosition, out: RetentionStepOutcome): string | null => {
    const after = at.phase === 'entries' ? at.after : 0;
    const rows = q.auditPage.all(after, st.limit);
    const due = [];
    for (const row of rows) {
      if (row.at >= st.before) break;
      due.push(row);
    }
    for (const row of due) q.deleteAudit.run(row.seq);
    out.examined += due.length;
    out.erased += due.length;
    return nextRetentionCursor(st.kind, at, { full: rows.length === st.limit, last: due.at(-1)?.seq, stop: due.length < rows.length });
  };

  /**
   * Erased players, by id: each whose id nothing needs any more (no sanction active or scheduled,
   * none started since `before`, no appeal waiting, no open case, no hold on them, their cases or
   * sanctions) takes a pseudonym on the rows from before their erasure, and leaves the list.
   */
  const playerStep = (st: RetentionStep, at: RetentionPosition, out: RetentionStepOutcome): string | null => {
    const holds = rules.holdsAt(st.at);
    const after = at.phase === 'waiting' ? at.after : '';
    const rows = q.erasedPlayers.all(after, st.limit);
    for (const { user_id: userId, erased_at: erasedAt } of rows) {
      out.examined += 1;
      const sanctions = q.playerSanctions.all(userId);
      const cases = q.playerCases.all(userId).map(toCase);
      let reason: RetentionKeptReason | null = null;
      if (holds.on([{ type: 'player', id: userId }, ...cases.map((c) => ({ type: 'case' as const, id: c.id })), ...sanctions.map((s) => ({ type: 'sanction' as const, id: s.id }))])) reason = 'legal_hold';
      else if (sanctions.some((s) => s.state === 'active' || s.state === 'scheduled')) reason = 'active_sanction';
      else if (q.playerAppealWaiting.get(userId) !== undefined) reason = 'open_appeal';
      else if (cases.some((c) => c.state === 'open' || c.state === 'claimed')) reason = 'open_case';
      // The ladder counts the sanctions started within its lookback, lifted ones aside (ladder.ts).
      else if (sanctions.some((s) => s.state !== 'lifted' && (s.effective_at ?? s.created_at) >= st.before)) reason = 'ladder_lookback';
      if (reason !== null) {
        keep(out, reason);
        continue;
      }
      // What the erasure covered: the rows from before it. Later cases and sanctions are other data.
      const player = newPseudonym();
      for (const c of cases) if (c.createdAt <= erasedAt) pseudonymiseCase(c, q.caseReportIds.all(userId, c.id), player);
      for (const s of sanctions) if (s.created_at <= erasedAt) pseudonymiseSanction(s.id, player);
      q.forgetErased.run(userId);
      out.erased += 1;
      out.erasedIds.push(userId);
    }
    return nextRetentionCursor(st.kind, at, { full: rows.length === st.limit, last: rows.at(-1)?.user_id });
  };

  const step = (st: RetentionStep): RetentionStepOutcome => {
    const out = emptyOutcome();
    if (st.limit <= 0) return { ...out, cursor: st.cursor };
    const at = decodeRetentionCursor(st);
    if (isCaseRetentionKind(st.kind)) out.cursor = caseStep(st.kind, st, at, out);
    else if (st.kind === 'appealStatements') out.cursor = appealStep(st, at, out);
    else if (st.kind === 'erasedPlayers') out.cursor = playerStep(st, at, out);
    else out.cursor = auditStep(st, at, out);
    return out;
  };
  const stepInTransaction = db.transaction((st: RetentionStep) => {
    const out = step(st);
    // A dry run computes inside the transaction, then throws it away.
    if (st.dryRun) throw new DryRun(out);
    return out;
  });

  return {
    async sweepRetention(st) {
      let out: RetentionStepOutcome;
      try {
        out = stepInTransaction.immediate(st);
      } catch (err) {
        if (err instanceof DryRun) return err.outcome;
        throw err;
      }
      // As after an erasure: erased text must not linger in the log's older frames.
      if (out.cursor === null) checkpoint();
      return out;
    },
  };
}

/** Thrown out of a dry run's transaction so that it rolls back, carrying what it would have done. */
class DryRun extends Error {
  constructor(readonly outcome: RetentionStepOutcome) {
    super('dry run');
  }
}
