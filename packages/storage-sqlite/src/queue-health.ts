import type Database from 'better-sqlite3';
import type { CaseTimeline, OpenCaseSummary, SlaBreach } from '@rm/storage';
import type { Store } from '@rm/storage';

type QueueHealthMethods = Pick<Store, 'recordSlaBreach' | 'slaBreachesSince' | 'openCases' | 'countReportsSince' | 'caseTimelinesSince'>;

interface OpenCaseRow {
  id: string;
  user_id: string;
  state: 'open' | 'claimed';
  claimed_by: string | null;
  created_at: number;
  sla_breached: number;
}

interface TimelineRow {
  case_id: string;
  user_id: string;
  created_at: number;
  decision_id: string;
  action: CaseTimeline['events'][number]['action'];
  moderator_id: string;
  at: number;
}

/** The queue-health reads and the SLA breach record of the SQLite store (schema migration 5). */
export function sqliteQueueHealth(db: Database.Database): QueueHealthMethods {
  const q = {
    insertBreach: db.prepare(`INSERT INTO sla_breaches (case_id, opening_id, category, at) VALUES (@caseId, @openingId, @category, @at) ON CONFLICT DO NOTHING`),
    flagCase: db.prepare<[string]>(`UPDATE cases SET sla_breached = 1 WHERE id = ?`),
    caseExists: db.prepare<[string], number>(`SELECT 1 FROM cases WHERE id = ?`).pluck(),
    breachesSince: db.prepare<[number], SlaBreach>(
      `SELECT case_id AS caseId, opening_id AS openingId, category, at FROM sla_breaches WHERE at >= ? ORDER BY at, case_id, opening_id`,
    ),
    // In primary-key order, so a page starts where the last one ended.
    openCases: db.prepare<[string, number], OpenCaseRow>(
      `SELECT id, user_id, state, claimed_by, created_at, sla_breached FROM cases WHERE state IN ('open', 'claimed') AND id > ? ORDER BY id LIMIT ?`,
    ),
    countReportsSince: db.prepare<[number], number>(`SELECT COUNT(*) FROM reports WHERE received_at >= ?`).pluck(),
    timelines: db.prepare<[number], TimelineRow>(
      `SELECT e.case_id, c.user_id, c.created_at, e.decision_id, e.action, e.moderator_id, e.at
       FROM case_events e JOIN cases c ON c.id = e.case_id
       WHERE e.case_id IN (SELECT DISTINCT case_id FROM case_events WHERE at >= ?)
       ORDER BY e.case_id, e.seq`,
    ),
  };

  const recordBreach = db.transaction((b: SlaBreach): boolean => {
    // An unknown case records nothing (as in the MongoDB store): no breach without its case.
    if (q.caseExists.get(b.caseId) === undefined) return false;
    if (q.insertBreach.run(b).changes === 0) return false;
    q.flagCase.run(b.caseId);
    return true;
  });
  // One read transaction: a decision committed meanwhile is either wholly in or wholly out.
  const timelines = db.transaction((since: number): CaseTimeline[] => {
    const byCase = new Map<string, CaseTimeline>();
    for (const r of q.timelines.all(since)) {
      let t = byCase.get(r.case_id);
      if (!t) byCase.set(r.case_id, (t = { caseId: r.case_id, userId: r.user_id, createdAt: r.created_at, events: [] }));
      t.events.push({ decisionId: r.decision_id, action: r.action, moderatorId: r.moderator_id, at: r.at });
    }
    return [...byCase.values()];
  });

  return {
    async recordSlaBreach(b) {
      return recordBreach.immediate(b);
    },
    async slaBreachesSince(since) {
      return q.breachesSince.all(since);
    },
    async openCases(afterId, limit): Promise<OpenCaseSummary[]> {
      return q.openCases.all(afterId, limit).map((r) => ({
        caseId: r.id,
        userId: r.user_id,
        state: r.state,
        claimedBy: r.claimed_by,
        createdAt: r.created_at,
        slaBreached: r.sla_breached === 1,
      }));
    },
    async countReportsSince(since) {
      return q.countReportsSince.get(since) ?? 0;
    },
    async caseTimelinesSince(since) {
      return timelines(since);
    },
  };
}
