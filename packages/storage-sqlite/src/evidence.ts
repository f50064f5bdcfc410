import type Database from 'better-sqlite3';
import type { EvidenceAction, EvidenceAuditEntry, EvidenceItemRecord, EvidenceKey, EvidenceState } from '@rm/storage';
import type { Store } from '@rm/storage';
import { HELD_EVIDENCE } from './privacy.js';

interface ItemRow {
  report_id: string;
  idx: number;
  case_id: string;
  state: EvidenceState;
  failure: string | null;
  detail: string | null;
  sha256: string | null;
  size: number | null;
  content_type: string | null;
  captured_at: number | null;
  at: number;
}
const toItem = (r: ItemRow): EvidenceItemRecord => ({
  reportId: r.report_id,
  index: r.idx,
  caseId: r.case_id,
  state: r.state,
  failure: r.failure,
  detail: r.detail,
  sha256: r.sha256,
  size: r.size,
  contentType: r.content_type,
  capturedAt: r.captured_at,
  at: r.at,
});
interface AuditRow {
  report_id: string;
  idx: number;
  action: EvidenceAction;
  sha256: string | null;
  detail: string | null;
  at: number;
}

type EvidenceMethods = Pick<Store, 'recordEvidence' | 'evidenceOfReports' | 'evidenceAudit' | 'expiredEvidence' | 'deleteEvidence'>;

/** The evidence tables of the SQLite store (schema migration 10). */
export function sqliteEvidence(db: Database.Database): EvidenceMethods {
  const q = {
    get: db.prepare<[string, number], ItemRow>(`SELECT * FROM evidence_items WHERE report_id = ? AND idx = ?`),
    upsert: db.prepare(
      `INSERT INTO evidence_items (report_id, idx, case_id, state, failure, detail, sha256, size, content_type, captured_at, at)
       VALUES (@reportId, @index, @caseId, @state, @failure, @detail, @sha256, @size, @contentType, @capturedAt, @at)
       ON CONFLICT (report_id, idx) DO UPDATE SET case_id = excluded.case_id, state = excluded.state, failure = excluded.failure,
         detail = excluded.detail, sha256 = excluded.sha256, size = excluded.size, content_type = excluded.content_type,
         captured_at = excluded.captured_at, at = excluded.at`,
    ),
    audit: db.prepare(`INSERT INTO evidence_audit (report_id, idx, action, sha256, detail, at) VALUES (?, ?, ?, ?, ?, ?)`),
    auditOf: db.prepare<[string], AuditRow>(`SELECT report_id, idx, action, sha256, detail, at FROM evidence_audit WHERE report_id = ? ORDER BY seq`),
    markDeleted: db.prepare<[number, string, number], ItemRow>(`UPDATE evidence_items SET state = 'deleted', at = ? WHERE report_id = ? AND idx = ? AND state = 'captured' RETURNING *`),
    // One statement for any number of reports: the ids travel as one JSON array.
    ofReports: db.prepare<[string], ItemRow>(`SELECT * FROM evidence_items WHERE report_id IN (SELECT value FROM json_each(?)) ORDER BY report_id, idx`),
    stillHeld: db.prepare<[string], number>(`SELECT 1 FROM evidence_items WHERE sha256 = ? AND state = 'captured' LIMIT 1`).pluck(),
    // The next captured items by key (evidence_captured), each with whether it may go.
    // A legal hold on the case, its player or its sanction keeps an item too (privacy.ts).
    expired: db.prepare<[number, number, number, string, number, number], ItemRow & { expired: number }>(
      `SELECT e.*, (c.state IN ('approved', 'dismissed') AND c.updated_at < ?
         AND NOT EXISTS (SELECT 1 FROM sanctions s WHERE s.case_id = e.case_id AND s.state = 'active')
         AND NOT EXISTS (SELECT 1 FROM appeals a WHERE a.case_id = e.case_id AND a.state IN ('open', 'claimed'))
         AND NOT (${HELD_EVIDENCE})) AS expired
       FROM evidence_items e JOIN cases c ON c.id = e.case_id
       WHERE e.state = 'captured' AND (e.report_id, e.idx) > (?, ?) ORDER BY e.report_id, e.idx LIMIT ?`,
    ),
  };
  const ACTION: Record<EvidenceState, EvidenceAction> = { captured: 'evidence.captured', failed: 'evidence.failed', deleted: 'evidence.deleted' };

  const record = db.transaction((item: EvidenceItemRecord): EvidenceItemRecord => {
    const before = q.get.get(item.reportId, item.index);
    if (before && before.state !== 'failed') return toItem(before);
    q.upsert.run(item);
    q.audit.run(item.reportId, item.index, ACTION[item.state], item.sha256, item.failure === null ? item.detail : `${item.failure}: ${item.detail ?? ''}`, item.at);
    return item;
  });
  const remove = db.transaction((keys: EvidenceKey[], at: number): string[] => {
    const hashes = new Set<string>();
    for (const key of keys) {
      const row = q.markDeleted.get(at, key.reportId, key.index);
      if (!row) continue;
      q.audit.run(row.report_id, row.idx, 'evidence.deleted', row.sha256, null, at);
      if (row.sha256 !== null) hashes.add(row.sha256);
    }
    return [...hashes].filter((sha256) => q.stillHeld.get(sha256) === undefined);
  });

  return {
    async recordEvidence(item) {
      return record.immediate(item);
    },
    async evidenceOfReports(reportIds) {
      if (reportIds.length === 0) return [];
      return q.ofReports.all(JSON.stringify(reportIds)).map(toItem);
    },
    async evidenceAudit(reportId) {
      return q.auditOf.all(reportId).map((r): EvidenceAuditEntry => ({ reportId: r.report_id, index: r.idx, action: r.action, sha256: r.sha256, detail: r.detail, at: r.at }));
    },
    async expiredEvidence(decidedBefore, cursor, limit, heldAt = Date.now()) {
      if (limit <= 0) return { items: [], cursor };
      // The cursor is the last item's key, [reportId, index]: it never changes (a rowid may, on VACUUM).
      const [reportId, index] = cursor === null ? ['', -1] : (JSON.parse(cursor) as [string, number]);
      const rows = q.expired.all(decidedBefore, heldAt, heldAt, reportId, index, limit);
      const last = rows.at(-1);
      return {
        items: rows.filter((r) => r.expired === 1).map(({ expired: _expired, ...row }) => toItem(row)),
        cursor: rows.length === limit && last ? JSON.stringify([last.report_id, last.idx]) : null,
      };
    },
    async deleteEvidence(keys, at) {
      return remove.immediate(keys, at);
    },
  };
}
