import type Database from 'better-sqlite3';
import { DECIDED_STATES, SLA_BREACHED_FLAG, type CaseQuery, type CaseTriageRecord, type ReporterStats, type Transition } from '@rm/storage';
import type { Store } from '@rm/storage';
import { withoutSync } from './durability.js';
import { REPORT_COLUMNS, toCase, toReport, type CaseRow, type ReportRow } from './rows.js';

/** A case's reports, bound twice to the case id (through the user's index: there is none by case). */
const OF_CASE = `user_id = (SELECT user_id FROM cases WHERE id = ?) AND case_id = ?`;

interface TriageRow {
  case_id: string;
  priority: number;
  report_count: number;
  distinct_reporters: number;
  categories: string;
  flags: string;
  fired_rules: string;
  last_report_at: number;
  updated_at: number;
}
const toTriage = (r: TriageRow): CaseTriageRecord => ({
  caseId: r.case_id,
  priority: r.priority,
  reportCount: r.report_count,
  distinctReporters: r.distinct_reporters,
  categories: JSON.parse(r.categories) as string[],
  flags: JSON.parse(r.flags) as string[],
  firedRules: JSON.parse(r.fired_rules) as string[],
  lastReportAt: r.last_report_at,
  updatedAt: r.updated_at,
});

type TriageMethods = Pick<Store, 'caseReports' | 'reporterStats' | 'getCaseTriage' | 'caseTriages' | 'setCaseTriage' | 'listCases' | 'scanReports'>;

/** The triage tables of the SQLite store (schema migration 5). */
export function sqliteTriage(db: Database.Database): { methods: TriageMethods; countDecision: (t: Transition) => void; uncountApproval: (caseId: string) => void } {
  const q = {
    caseReports: db.prepare<[string, string], ReportRow>(`SELECT ${REPORT_COLUMNS} FROM reports WHERE ${OF_CASE} ORDER BY received_at, id`).raw(),
    stats: db.prepare<[string, string], { approved: number; dismissed: number }>(`SELECT approved, dismissed FROM reporter_stats WHERE platform = ? AND reporter_id = ?`),
    // One row per distinct reporter of the case; the +1 or -1 of this decision is bound twice (in
    // textual order: the new row's values, the case, the update), a new row floored at 0. A count never goes below zero: an undo of a decision counted
    // before this reporter's row existed leaves 0, not -1 (which would read as full credibility).
    count: db.prepare<[number, number, string, string, number, number]>(
      `INSERT INTO reporter_stats (platform, reporter_id, approved, dismissed)
       SELECT DISTINCT reporter_platform, reporter_id, MAX(0, ?), MAX(0, ?) FROM reports WHERE ${OF_CASE}
       ON CONFLICT (platform, reporter_id) DO UPDATE SET approved = MAX(0, approved + ?), dismissed = MAX(0, dismissed + ?)`,
    ),
    getTriage: db.prepare<[string], TriageRow>(`SELECT * FROM case_triage WHERE case_id = ?`),
    // One statement for any number of cases: the ids travel as one JSON array.
    triagesOf: db.prepare<[string], TriageRow>(`SELECT * FROM case_triage WHERE case_id IN (SELECT value FROM json_each(?))`),
    setTriage: db.prepare(
      `INSERT INTO case_triage (case_id, priority, report_count, distinct_reporters, categories, flags, fired_rules, last_report_at, updated_at)
       VALUES (@caseId, @priority, @reportCount, @distinctReporters, @categories, @flags, @firedRules, @lastReportAt, @updatedAt)
       ON CONFLICT (case_id) DO UPDATE SET priority = excluded.priority, report_count = excluded.report_count,
         distinct_reporters = excluded.distinct_reporters, categories = excluded.categories, flags = excluded.flags,
         fired_rules = excluded.fired_rules, last_report_at = excluded.last_report_at, updated_at = excluded.updated_at`,
    ),
    scan: db.prepare<[number, number], [number, ...ReportRow]>(`SELECT rowid, ${REPORT_COLUMNS} FROM reports WHERE rowid > ? ORDER BY rowid LIMIT ?`).raw(),
  };

  const decided = (s: string) => (DECIDED_STATES as readonly string[]).includes(s);
  /** Inside transitionCase's transaction: into a decided state counts the case's reporters, out of one (undo) uncounts them. */
  const countDecision = (t: Transition) => {
    const [state, step] = decided(t.next.state) && !decided(t.expectedState) ? [t.next.state, 1] : decided(t.expectedState) && !decided(t.next.state) ? [t.expectedState, -1] : [null, 0];
    if (state === null) return;
    const approved = state === 'approved' ? step : 0;
    const dismissed = state === 'dismissed' ? step : 0;
    q.count.run(approved, dismissed, t.caseId, t.caseId, approved, dismissed);
  };
  /** Inside an overturned appeal's transaction: the case's approval no longer counts for its reporters (as an undo). */
  const uncountApproval = (caseId: string) => q.count.run(-1, 0, caseId, caseId, -1, 0);

  const listStatements = new Map<string, Database.Statement>();
  const prepared = (sql: string) => {
    let s = listStatements.get(sql);
    if (!s) listStatements.set(sql, (s = db.prepare(sql)));
    return s;
  };
  const listCases = db.transaction((query: CaseQuery) => {
    const where = [`c.state IN (${query.states.map(() => '?').join(', ') || 'NULL'})`];
    const params: unknown[] = [...query.states];
    if (query.category !== undefined) {
      where.push(`EXISTS (SELECT 1 FROM json_each(t.categories) WHERE value = ?)`);
      params.push(query.category);
    }
    if (query.flag !== undefined) {
      // The SLA flag is the case's own (set with its breach), the others the triage's.
      where.push(query.flag === SLA_BREACHED_FLAG ? `c.sla_breached = 1` : `EXISTS (SELECT 1 FROM json_each(t.flags) WHERE value = ?)`);
      if (query.flag !== SLA_BREACHED_FLAG) params.push(query.flag);
    }
    const from = `FROM case_triage t JOIN cases c ON c.id = t.case_id WHERE ${where.join(' AND ')}`;
    const order = {
      // The age term only for open cases, as the API shows it.
      priority: `t.priority + CASE WHEN c.state IN ('open', 'claimed') THEN ? * (? - c.created_at) / 3600000.0 ELSE 0 END DESC, c.created_at, c.id`,
      oldest: `c.created_at, c.id`,
      newest: `c.created_at DESC, c.id DESC`,
    }[query.sort];
    const orderParams = query.sort === 'priority' ? [query.agePerHour, query.now] : [];
    const total = (prepared(`SELECT COUNT(*) AS n ${from}`).get(...params) as { n: number }).n;
    // Both tables have updated_at: the triage's is read under another name.
    const columns = `c.*, t.case_id, t.priority, t.report_count, t.distinct_reporters, t.categories, t.flags, t.fired_rules, t.last_report_at, t.updated_at AS triage_updated_at`;
    const rows = prepared(`SELECT ${columns} ${from} ORDER BY ${order} LIMIT ? OFFSET ?`).all(...params, ...orderParams, query.page.limit, query.page.offset) as (CaseRow &
      Omit<TriageRow, 'updated_at'> & { triage_updated_at: number })[];
    return { total, cases: rows.map((r) => ({ case: toCase(r), triage: toTriage({ ...r, updated_at: r.triage_updated_at }) })) };
  });

  return {
    countDecision,
    uncountApproval,
    methods: {
      async caseReports(caseId) {
        return q.caseReports.all(caseId, caseId).map(toReport);
      },
      async reporterStats(reporters) {
        const found: ReporterStats[] = [];
        for (const r of reporters) {
          const row = q.stats.get(r.platform, r.id);
          if (row) found.push({ platform: r.platform, id: r.id, approved: row.approved, dismissed: row.dismissed });
        }
        return found;
      },
      async getCaseTriage(caseId) {
        const row = q.getTriage.get(caseId);
        return row ? toTriage(row) : null;
      },
      async caseTriages(caseIds) {
        return caseIds.length === 0 ? [] : q.triagesOf.all(JSON.stringify(caseIds)).map(toTriage);
      },
      async setCaseTriage(t) {
        // Derived: lost in a power cut, it is recomputed at the case's next change, and a rule that
        // fires again acts idempotently (refresh-triage.ts).
        withoutSync(db, () => q.setTriage.run({ ...t, categories: JSON.stringify(t.categories), flags: JSON.stringify(t.flags), firedRules: JSON.stringify(t.firedRules) }));
      },
      async listCases(query) {
        return listCases(query);
      },
      async scanReports(cursor, limit) {
        const rows = q.scan.all(cursor === null ? 0 : Number(cursor), limit);
        const last = rows.at(-1);
        return { reports: rows.map(([, ...row]) => toReport(row as ReportRow)), cursor: rows.length === limit && last ? String(last[0]) : null };
      },
    },
  };
}
