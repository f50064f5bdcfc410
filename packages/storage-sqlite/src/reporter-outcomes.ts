import type Database from 'better-sqlite3';
import type { ReportOutcome, Transition } from '@rm/storage';
import { outcomeChange } from '@rm/storage/adapter';
import type { Store } from '@rm/storage';

interface OutcomeRow {
  seq: number;
  report_id: string;
  case_id: string;
  actioned: number;
  reopened: number;
  at: number;
}

const toOutcome = (r: OutcomeRow): ReportOutcome => ({ seq: r.seq, reportId: r.report_id, caseId: r.case_id, actioned: r.actioned === 1, reopened: r.reopened === 1, at: r.at });

/** Reporter outcomes in the SQLite store (schema migration 11). */
export function sqliteReporterOutcomes(db: Database.Database): { methods: Pick<Store, 'reporterOutcomes'>; recordOutcomes: (t: Transition) => void } {
  const q = {
    // REPLACE deletes the report's earlier row and inserts a new one, which takes the next seq:
    // the report moves to the end of its reporter's list. Through the user's index, as every read
    // of a case's reports (schema migration 4).
    record: db.prepare<[number, number, number, string, string]>(
      `INSERT OR REPLACE INTO report_outcomes (report_id, reporter_platform, reporter_id, case_id, actioned, reopened, at)
       SELECT id, reporter_platform, reporter_id, case_id, ?, ?, ? FROM reports
       WHERE user_id = (SELECT user_id FROM cases WHERE id = ?) AND case_id = ? ORDER BY received_at, id`,
    ),
    page: db.prepare<[string, string, number, number], OutcomeRow>(
      `SELECT seq, report_id, case_id, actioned, reopened, at FROM report_outcomes
       WHERE reporter_platform = ? AND reporter_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
    ),
  };
  return {
    /** Inside transitionCase's transaction. */
    recordOutcomes(t) {
      const change = outcomeChange(t);
      if (change) q.record.run(change.actioned ? 1 : 0, change.reopened ? 1 : 0, t.event.at, t.caseId, t.caseId);
    },
    methods: {
      async reporterOutcomes(reporter, after, limit) {
        // A negative LIMIT means none to SQLite.
        if (limit <= 0) return [];
        return q.page.all(reporter.platform, reporter.id, after, limit).map(toOutcome);
      },
    },
  };
}
