import type Database from 'better-sqlite3';
import type { AutomatedDecision } from '@rm/contracts';
import type { Store } from '@rm/storage';
import type { TransparencyFigures } from '@rm/storage';
import { decodeStatementCursor, encodeStatementCursor } from '@rm/storage/adapter';
import { toSanction, type SanctionRow } from './sanctions.js';

type TransparencyMethods = Pick<Store, 'transparencyFigures' | 'statementsIn'>;

/** When a sanction took effect: a wave's effectiveAt, else its creation (the expression of the sanctions_by_start index). */
const START = 'COALESCE(effective_at, created_at)';
/** Took effect: not scheduled still, nor lifted before its wave started. */
const TOOK_EFFECT = `state <> 'scheduled' AND NOT (effective_at IS NOT NULL AND lifted_at IS NOT NULL AND lifted_at < effective_at)`;

interface ReportGroupRow {
  category: string;
  platform: string;
  count: number;
}
interface SanctionGroupRow {
  kind: string;
  ground: 'terms' | 'illegal' | null;
  detection: number | null;
  decision: AutomatedDecision | null;
  count: number;
}

/** The transparency figures and the statements' pages on SQLite, each one aggregated in SQL. */
export function sqliteTransparency(db: Database.Database): TransparencyMethods {
  const q = {
    // The report's answer to the category question, as the triage policy reads it (trimmed, lower-cased).
    reports: db.prepare<{ from: number; to: number; question: string; categories: string; fallback: string }, ReportGroupRow>(
      `SELECT CASE WHEN answer IN (SELECT value FROM json_each(@categories)) THEN answer ELSE @fallback END AS category, platform, COUNT(*) AS count
       FROM (SELECT r.reporter_platform AS platform,
               (SELECT lower(trim(json_extract(a.value, '$.answer'))) FROM json_each(r.answers) a
                WHERE json_extract(a.value, '$.questionId') = @question LIMIT 1) AS answer
             FROM reports r WHERE r.received_at >= @from AND r.received_at < @to)
       GROUP BY 1, 2 ORDER BY 1, 2`,
    ),
    decisions: db.prepare<[number, number], { approved: number | null; dismissed: number | null; undone: number | null }>(
      `SELECT SUM(action = 'approve') AS approved, SUM(action = 'dismiss') AS dismissed, SUM(action = 'undo') AS undone
       FROM case_events WHERE at >= ? AND at < ?`,
    ),
    decidedCount: db
      .prepare<[number, number], number>(`SELECT COUNT(*) FROM case_events WHERE at >= ? AND at < ? AND action IN ('approve', 'dismiss')`)
      .pluck(),
    // The case opened on its first report (cases.created_at is that report's receipt).
    middle: db
      .prepare<[number, number, number, number], number>(
        `SELECT e.at - c.created_at AS d FROM case_events e JOIN cases c ON c.id = e.case_id
         WHERE e.at >= ? AND e.at < ? AND e.action IN ('approve', 'dismiss') ORDER BY d LIMIT ? OFFSET ?`,
      )
      .pluck(),
    appealsReceived: db.prepare<[number, number], number>(`SELECT COUNT(*) FROM appeals WHERE created_at >= ? AND created_at < ?`).pluck(),
    appealsDecided: db.prepare<[number, number], { upheld: number | null; overturned: number | null }>(
      `SELECT SUM(state = 'upheld') AS upheld, SUM(state = 'overturned') AS overturned FROM appeals WHERE decided_at >= ? AND decided_at < ?`,
    ),
    appealMiddle: db
      .prepare<[number, number, number, number], number>(`SELECT decided_at - created_at AS d FROM appeals WHERE decided_at >= ? AND decided_at < ? ORDER BY d LIMIT ? OFFSET ?`)
      .pluck(),
    sanctions: db.prepare<[number, number], SanctionGroupRow>(
      `SELECT kind, json_extract(statement, '$.ground.type') AS ground, json_extract(statement, '$.automation.automatedDetection') AS detection,
         json_extract(statement, '$.automation.automatedDecision') AS decision, COUNT(*) AS count
       FROM sanctions WHERE ${START} >= ? AND ${START} < ? AND ${TOOK_EFFECT}
       GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
    ),
    statements: db.prepare<{ at: number; id: string; to: number; limit: number }, SanctionRow & { start: number }>(
      `SELECT *, ${START} AS start FROM sanctions
       WHERE (${START} > @at OR (${START} = @at AND id > @id)) AND ${START} < @to AND statement IS NOT NULL AND ${TOOK_EFFECT}
       ORDER BY ${START}, id LIMIT @limit`,
    ),
  };

  /** The median of `n` values read in order by `middle(limit, offset)`: one for an odd count, the two middle ones averaged for an even one. */
  const medianOf = (n: number, middle: (limit: number, offset: number) => number[]): number | null => {
    if (n === 0) return null;
    const values = middle(n % 2 === 1 ? 1 : 2, Math.floor((n - 1) / 2));
    return Math.round(values.reduce((a, b) => a + b, 0) / values.length);
  };
  const median = (from: number, to: number) => medianOf(q.decidedCount.get(from, to) ?? 0, (limit, offset) => q.middle.all(from, to, limit, offset));
  const appeals = (from: number, to: number): TransparencyFigures['appeals'] => {
    const decided = q.appealsDecided.get(from, to);
    const upheld = decided?.upheld ?? 0;
    const overturned = decided?.overturned ?? 0;
    return {
      received: q.appealsReceived.get(from, to) ?? 0,
      upheld,
      overturned,
      medianTimeToDecisionMs: medianOf(upheld + overturned, (limit, offset) => q.appealMiddle.all(from, to, limit, offset)),
    };
  };

  return {
    async transparencyFigures(query): Promise<TransparencyFigures> {
      const { from, to } = query;
      const d = q.decisions.get(from, to);
      return {
        reports: q.reports.all({ from, to, question: query.categoryQuestionId, categories: JSON.stringify(query.categories), fallback: query.defaultCategory }),
        decisions: { approved: d?.approved ?? 0, dismissed: d?.dismissed ?? 0, undone: d?.undone ?? 0 },
        sanctions: q.sanctions.all(from, to).map((r) => ({
          kind: r.kind,
          ground: r.ground,
          automatedDetection: r.detection === null ? null : r.detection === 1,
          automatedDecision: r.decision,
          count: r.count,
        })),
        medianTimeToDecisionMs: median(from, to),
        appeals: appeals(from, to),
      };
    },
    async statementsIn(period, cursor, limit) {
      if (limit <= 0) return { sanctions: [], cursor };
      const after = cursor === null ? { at: period.from, id: '' } : decodeStatementCursor(cursor);
      const rows = q.statements.all({ at: after.at, id: after.id, to: period.to, limit });
      const last = rows.at(-1);
      return { sanctions: rows.map(toSanction), cursor: rows.length < limit || !last ? null : encodeStatementCursor(last.start, last.id) };
    },
  };
}
