import type Database from 'better-sqlite3';
import {
  dmChannel,
  ERASED_TEXT,
  type ErasureStep,
  type ErasureStepOutcome,
  type HoldRecord,
  type HoldTarget,
  type HoldTargetType,
  type PrivacyAction,
  type PrivacyAuditEntry,
  type ReportRecord,
  type Store,
} from '@rm/storage';
import { dmKeySuffix } from '@rm/contracts';
import { holdTargetRef, reportScrubChanged, scrubbedReport } from '@rm/storage/adapter';
import { REPORT_COLUMNS, toCase, toEvent, toReport, toUser, type CaseRow, type EventRow, type ReportRow, type UserRow } from './rows.js';
import { toSanction, type SanctionRow } from './sanctions.js';
import { toAppeal, type AppealRow } from './appeals.js';
import { ACTIVE, privacyRules, type HoldRow } from './privacy-rules.js';

const toHold = (r: HoldRow): HoldRecord => ({
  id: r.id,
  target: { type: r.target_type, id: r.target_id },
  reason: r.reason,
  until: r.until,
  placedBy: r.placed_by,
  placedAt: r.placed_at,
  releasedAt: r.released_at,
  releasedBy: r.released_by,
  releaseReason: r.release_reason,
});
interface AuditRow {
  seq: number;
  action: PrivacyAction;
  request_id: string;
  subject_ref: string;
  actor: string;
  at: number;
  detail: string;
}
const toAudit = (r: AuditRow): PrivacyAuditEntry => ({
  seq: r.seq,
  action: r.action,
  requestId: r.request_id,
  subjectRef: r.subject_ref,
  actor: r.actor,
  at: r.at,
  detail: JSON.parse(r.detail) as PrivacyAuditEntry['detail'],
});

/**
 * The SQL of a legal hold on an evidence item's case (`e`, joined to its case `c`), for the
 * evidence retention sweep: on the case, the player, or a sanction of the case. Binds `at` twice.
 */
export const HELD_EVIDENCE = `EXISTS (SELECT 1 FROM privacy_holds h WHERE h.${ACTIVE} AND (
      (h.target_type = 'case' AND h.target_id = e.case_id) OR (h.target_type = 'player' AND h.target_id = c.user_id)))
  OR EXISTS (SELECT 1 FROM privacy_holds h JOIN sanctions s ON s.id = h.target_id
      WHERE h.target_type = 'sanction' AND h.${ACTIVE} AND s.case_id = e.case_id)`;

type PrivacyMethods = Pick<
  Store,
  'placeHold' | 'releaseHold' | 'getHold' | 'holdsOn' | 'subjectReports' | 'subjectRecords' | 'eraseSubject' | 'recordPrivacyAudit' | 'privacyAudit'
>;

/** The privacy tables of the SQLite store (schema migration 17): holds, the audit, and erasure. */
export function sqlitePrivacy(db: Database.Database, checkpoint: () => void): PrivacyMethods {
  const q = {
    insertHold: db.prepare(
      `INSERT INTO privacy_holds (id, target_type, target_id, reason, until, placed_by, placed_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
    ),
    getHold: db.prepare<[string], HoldRow>(`SELECT * FROM privacy_holds WHERE id = ?`),
    release: db.prepare<[number, string, string | null, string, number], HoldRow>(
      `UPDATE privacy_holds SET released_at = ?, released_by = ?, release_reason = ? WHERE id = ? AND ${ACTIVE} RETURNING *`,
    ),
    holdsOf: db.prepare<[HoldTargetType, string], HoldRow>(`SELECT * FROM privacy_holds WHERE target_type = ? AND target_id = ? ORDER BY placed_at, id`),
    insertAudit: db.prepare<[string, string, string, string, number, string], AuditRow>(
      `INSERT INTO privacy_audit (action, request_id, subject_ref, actor, at, detail) VALUES (?, ?, ?, ?, ?, ?) RETURNING *`,
    ),
    audit: db.prepare<[number, number], AuditRow>(`SELECT * FROM privacy_audit WHERE seq > ? ORDER BY seq LIMIT ?`),
    // A player's reports newest first along reports_by_user_time, after a (receivedAt, id) cursor.
    playerReports: db
      .prepare<[string, number, string, number], ReportRow>(
        `SELECT ${REPORT_COLUMNS} FROM reports WHERE user_id = ? AND (received_at, id) < (?, ?) ORDER BY received_at DESC, id DESC LIMIT ?`,
      )
      .raw(),
    // A reporter's reports by id along reports_by_reporter.
    reporterReports: db
      .prepare<[string, string, string, number], ReportRow>(
        `SELECT ${REPORT_COLUMNS} FROM reports WHERE reporter_platform = ? AND reporter_id = ? AND id > ? ORDER BY id LIMIT ?`,
      )
      .raw(),
    caseIdsOfPlayer: db.prepare<[string], string>(`SELECT DISTINCT case_id FROM reports WHERE user_id = ?`).pluck(),
    getCase: db.prepare<[string], CaseRow>(`SELECT * FROM cases WHERE id = ?`),
    history: db.prepare<[string], EventRow>(`SELECT * FROM case_events WHERE case_id = ? ORDER BY seq`),
    getUser: db.prepare<[string], UserRow>(`SELECT * FROM users WHERE id = ?`),
    deleteUser: db.prepare(`DELETE FROM users WHERE id = ?`),
    sanctionsOf: db.prepare<[string], SanctionRow>(`SELECT * FROM sanctions WHERE user_id = ? ORDER BY created_at DESC, id DESC`),
    appealsOf: db.prepare<[string], AppealRow>(`SELECT * FROM appeals WHERE user_id = ? ORDER BY created_at, id`),
    stats: db.prepare<[string, string], { platform: string; id: string; approved: number; dismissed: number }>(
      `SELECT platform, reporter_id AS id, approved, dismissed FROM reporter_stats WHERE platform = ? AND reporter_id = ?`,
    ),
    outcomes: db.prepare<[string, string], { seq: number; report_id: string; case_id: string; actioned: number; reopened: number; at: number }>(
      `SELECT seq, report_id, case_id, actioned, reopened, at FROM report_outcomes WHERE reporter_platform = ? AND reporter_id = ? ORDER BY seq DESC LIMIT 10000`,
    ),
    eraseReport: db.prepare(`UPDATE reports SET answers = ?, evidence = ?, user_name = ?, user_display_name = ?, user_avatar = ?, reporter_id = ? WHERE id = ?`),
    deleteStats: db.prepare(`DELETE FROM reporter_stats WHERE platform = ? AND reporter_id = ?`),
    pseudonymiseOutcome: db.prepare(`UPDATE report_outcomes SET reporter_id = ? WHERE report_id = ?`),
    // The recorder's DMs to the reporter: recipient, text and dedupe key (it names them) replaced.
    eraseDms: db.prepare(`UPDATE messages SET channel = ?, content = ?, dedupe_key = 'dm-erased-' || id WHERE channel = ?`),
    // Their deliveries through a chat platform's API, keyed dm-<decisionId>-<reporterId>: only there to not send twice.
    deleteDmDeliveries: db.prepare(`DELETE FROM deliveries WHERE key >= 'dm-' AND key < 'dm.' AND substr(key, -length(@suffix)) = @suffix`),
    // The retention sweep's erasedPlayers ends the player's id once nothing needs it (retention.ts).
    markErased: db.prepare(`INSERT INTO privacy_erased_players (user_id, erased_at) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET erased_at = MAX(erased_at, excluded.erased_at)`),
  };

  const rules = privacyRules(db);

  const holdsOn: PrivacyMethods['holdsOn'] = async (targets, activeAt) =>
    targets
      .flatMap((t) => q.holdsOf.all(t.type, t.id))
      .filter((h) => activeAt === null || (h.released_at === null && (h.until === null || h.until > activeAt)))
      .sort((a, b) => a.placed_at - b.placed_at || a.id.localeCompare(b.id))
      .map(toHold);

  const place = db.transaction((hold: Parameters<PrivacyMethods['placeHold']>[0]) => {
    const created = q.insertHold.run(hold.id, hold.target.type, hold.target.id, hold.reason, hold.until, hold.placedBy, hold.placedAt).changes > 0;
    if (created) {
      q.insertAudit.get('hold', hold.id, holdTargetRef(hold.target), hold.placedBy, hold.placedAt, JSON.stringify({ target: hold.target.type, until: hold.until ?? 'released' }));
    }
    return { hold: toHold(q.getHold.get(hold.id)!), created };
  });
  const release = db.transaction((r: Parameters<PrivacyMethods['releaseHold']>[0]) => {
    const row = q.release.get(r.at, r.by, r.reason, r.id, r.at);
    if (!row) return null;
    q.insertAudit.get('release', r.id, holdTargetRef({ type: row.target_type, id: row.target_id }), r.by, r.at, JSON.stringify({ target: row.target_type }));
    return toHold(row);
  });

  const pageOf = (step: Pick<ErasureStep, 'subject' | 'cursor' | 'limit'>): { reports: ReportRecord[]; cursor: string | null } => {
    if (step.limit <= 0) return { reports: [], cursor: step.cursor };
    const s = step.subject;
    let reports: ReportRecord[];
    if (s.kind === 'player') {
      const [receivedAt, id] = step.cursor === null ? [Number.MAX_SAFE_INTEGER, ''] : (JSON.parse(step.cursor) as [number, string]);
      reports = q.playerReports.all(s.userId, receivedAt, id, step.limit).map(toReport);
    } else {
      const after = step.cursor === null ? '' : (JSON.parse(step.cursor) as string);
      reports = q.reporterReports.all(s.platform, s.reporterId, after, step.limit).map(toReport);
    }
    const last = reports.at(-1);
    const cursor = reports.length === step.limit && last ? JSON.stringify(s.kind === 'player' ? [last.receivedAt, last.id] : last.id) : null;
    return { reports, cursor };
  };

  /** One step: the page's reports, then on the last page the rest. Runs in one IMMEDIATE transaction, rolled back for a dry run. */
  const step = (st: ErasureStep): ErasureStepOutcome => {
    const out: ErasureStepOutcome = { reports: 0, evidenceItems: 0, unheldBlobs: [], appeals: 0, sanctions: 0, user: false, reporterStats: false, outcomes: 0, directMessages: 0, openCaseUsers: [], kept: [], cursor: null };
    const page = pageOf(st);
    out.cursor = page.cursor;
    const holds = rules.holdsAt(st.at);
    const kept = (kind: string, id: string, hold: HoldRow) => out.kept.push({ kind, id, reason: 'legal_hold', holdId: hold.id });
    const hashes = new Set<string>();
    const openUsers = new Set<string>();
    const player = st.subject.kind === 'player';
    for (const r of page.reports) {
      const hold = holds.ofCase(r.caseId, r.userId);
      if (hold) {
        kept('report', r.id, hold);
        continue;
      }
      // A player's names and free text go; a reporter's free text, and their id for the pseudonym.
      const next = scrubbedReport(r, { names: player, text: true, reporter: player ? null : st.pseudonym }, st.keep);
      if (reportScrubChanged(r, next)) {
        out.reports += 1;
        q.eraseReport.run(JSON.stringify(next.answers), JSON.stringify(next.evidence), next.user.name, next.user.displayName, next.user.avatar, next.reporterId, r.id);
        if (!player) out.outcomes += q.pseudonymiseOutcome.run(st.pseudonym, r.id).changes;
      }
      if (!player) {
        const c = q.getCase.get(r.caseId);
        if (c && (c.state === 'open' || c.state === 'claimed')) openUsers.add(c.user_id);
      }
      const evidence = rules.deleteReportEvidence(r.id, st.at, 'erased on request');
      out.evidenceItems += evidence.items;
      for (const sha256 of evidence.hashes) hashes.add(sha256);
    }
    out.unheldBlobs = [...hashes].filter((sha256) => !rules.stillHeld(sha256));
    out.openCaseUsers = [...openUsers];
    if (out.cursor !== null) return out;

    // The last step: everything but the reports.
    const s = st.subject;
    if (s.kind === 'reporter') {
      out.reporterStats = q.deleteStats.run(s.platform, s.reporterId).changes > 0;
      if (s.platform === 'chatplatform') {
        out.directMessages = q.eraseDms.run(dmChannel(st.pseudonym), ERASED_TEXT, dmChannel(s.reporterId)).changes;
        q.deleteDmDeliveries.run({ suffix: dmKeySuffix(s.reporterId) });
      }
      return out;
    }
    q.markErased.run(s.userId, st.at);
    const playerHold = holds.on([{ type: 'player', id: s.userId }]);
    if (playerHold) {
      if (q.getUser.get(s.userId)) kept('user', s.userId, playerHold);
    } else {
      out.user = q.deleteUser.run(s.userId).changes > 0;
    }
    const sanctionHeld = new Map<string, HoldRow>();
    for (const row of q.sanctionsOf.all(s.userId)) {
      const sanction = toSanction(row);
      const hold = holds.on([{ type: 'sanction', id: sanction.id }]) ?? holds.ofCase(sanction.caseId, s.userId);
      if (hold) {
        sanctionHeld.set(sanction.id, hold);
        kept('sanction', sanction.id, hold);
        continue;
      }
      if (sanction.state === 'active' || sanction.state === 'scheduled') out.kept.push({ kind: 'sanction', id: sanction.id, reason: 'active_sanction' });
      if (rules.eraseSanction(row)) out.sanctions += 1;
    }
    for (const row of q.appealsOf.all(s.userId)) {
      const appeal = toAppeal(row);
      const hold = sanctionHeld.get(appeal.sanctionId);
      if (hold) {
        kept('appeal', appeal.id, hold);
        continue;
      }
      if (rules.eraseAppeal(appeal)) out.appeals += 1;
    }
    return out;
  };
  const stepInTransaction = db.transaction((st: ErasureStep) => {
    const out = step(st);
    // A dry run computes inside the transaction, then throws it away.
    if (st.dryRun) throw new DryRun(out);
    return out;
  });

  return {
    async placeHold(hold) {
      return place.immediate(hold);
    },
    async releaseHold(r) {
      return release.immediate(r);
    },
    async getHold(id) {
      const row = q.getHold.get(id);
      return row ? toHold(row) : null;
    },
    holdsOn,
    async subjectReports(subject, cursor, limit) {
      return pageOf({ subject, cursor, limit });
    },
    async subjectRecords(subject) {
      if (subject.kind === 'reporter') {
        const stats = q.stats.get(subject.platform, subject.reporterId);
        return {
          user: null,
          cases: [],
          sanctions: [],
          appeals: [],
          reporterStats: stats ? { platform: stats.platform, id: stats.id, approved: stats.approved, dismissed: stats.dismissed } : null,
          outcomes: q.outcomes.all(subject.platform, subject.reporterId).reverse().map((r) => ({ seq: r.seq, reportId: r.report_id, caseId: r.case_id, actioned: r.actioned === 1, reopened: r.reopened === 1, at: r.at })),
          holds: [],
        };
      }
      const user = q.getUser.get(subject.userId);
      const cases = q.caseIdsOfPlayer
        .all(subject.userId)
        .map((id) => q.getCase.get(id))
        .filter((c): c is CaseRow => c !== undefined)
        .map((c) => ({ case: toCase(c), history: q.history.all(c.id).map(toEvent) }))
        .sort((a, b) => a.case.createdAt - b.case.createdAt || a.case.id.localeCompare(b.case.id));
      const sanctions = q.sanctionsOf.all(subject.userId).map(toSanction);
      const targets: HoldTarget[] = [{ type: 'player', id: subject.userId }, ...cases.map((c) => ({ type: 'case' as const, id: c.case.id })), ...sanctions.map((x) => ({ type: 'sanction' as const, id: x.id }))];
      return {
        user: user ? toUser(user) : null,
        cases,
        sanctions,
        appeals: q.appealsOf.all(subject.userId).map(toAppeal),
        reporterStats: null,
        outcomes: [],
        holds: await holdsOn(targets, null),
      };
    },
    async eraseSubject(st) {
      let out: ErasureStepOutcome;
      try {
        out = stepInTransaction.immediate(st);
      } catch (err) {
        if (err instanceof DryRun) return err.outcome;
        throw err;
      }
      // Erased text may linger in the write-ahead log's older frames: after the last step, the log
      // is checkpointed and truncated (secure_delete zeroes what the updates freed in the file).
      if (out.cursor === null) checkpoint();
      return out;
    },
    async recordPrivacyAudit(entry) {
      return toAudit(q.insertAudit.get(entry.action, entry.requestId, entry.subjectRef, entry.actor, entry.at, JSON.stringify(entry.detail))!);
    },
    async privacyAudit(afterSeq, limit) {
      if (limit <= 0) return [];
      return q.audit.all(afterSeq, limit).map(toAudit);
    },
  };
}

/** Thrown out of a dry run's transaction so that it rolls back, carrying what it would have done. */
class DryRun extends Error {
  constructor(readonly outcome: ErasureStepOutcome) {
    super('dry run');
  }
}

