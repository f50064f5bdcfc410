import type Database from 'better-sqlite3';
import { ERASED_TEXT, type AppealRecord, type HoldTarget, type HoldTargetType } from '@rm/storage';
import { appealNotErased, eraseSanctionEvidence, eraseStatement } from '@rm/storage/adapter';
import { toSanction, type SanctionRow } from './sanctions.js';

/** A legal hold as stored (privacy_holds). */
export interface HoldRow {
  id: string;
  target_type: HoldTargetType;
  target_id: string;
  reason: string;
  until: number | null;
  placed_by: string;
  placed_at: number;
  released_at: number | null;
  released_by: string | null;
  release_reason: string | null;
}

/** A hold active at `at` (bound once): not released, and its end not reached. */
export const ACTIVE = `released_at IS NULL AND (until IS NULL OR until > ?)`;

/** The holds in force at one time, for one erasure step or retention step. */
export interface HoldsAt {
  /** The first active hold on any of these targets, or null. */
  on(targets: HoldTarget[]): HoldRow | null;
  /** The hold keeping a case's data: on the case, its player, or a sanction of the case; or null. */
  ofCase(caseId: string | null, userId: string): HoldRow | null;
}

/**
 * What erasure and the retention sweep both do to the SQLite store's rows (privacy.ts, retention.ts),
 * written once: the holds in force, a report's kept evidence deleted, a sanction's and an appeal's
 * free text erased.
 */
export function privacyRules(db: Database.Database) {
  const q = {
    activeHoldOn: db.prepare<[HoldTargetType, string, number], HoldRow>(`SELECT * FROM privacy_holds WHERE target_type = ? AND target_id = ? AND ${ACTIVE} ORDER BY placed_at, id LIMIT 1`),
    activeSanctionHolds: db.prepare<[number], HoldRow>(`SELECT * FROM privacy_holds WHERE target_type = 'sanction' AND ${ACTIVE}`),
    sanctionCase: db.prepare<[string], string | null>(`SELECT case_id FROM sanctions WHERE id = ?`).pluck(),
    capturedOf: db.prepare<[string], { idx: number; sha256: string | null }>(`SELECT idx, sha256 FROM evidence_items WHERE report_id = ? AND state = 'captured'`),
    markDeleted: db.prepare(`UPDATE evidence_items SET state = 'deleted', detail = NULL, at = ? WHERE report_id = ? AND idx = ? AND state = 'captured'`),
    scrubItemDetail: db.prepare(`UPDATE evidence_items SET detail = NULL WHERE report_id = ? AND detail IS NOT NULL`),
    scrubAuditDetail: db.prepare(`UPDATE evidence_audit SET detail = NULL WHERE report_id = ? AND detail IS NOT NULL AND action <> 'evidence.deleted'`),
    evidenceAudit: db.prepare(`INSERT INTO evidence_audit (report_id, idx, action, sha256, detail, at) VALUES (?, ?, 'evidence.deleted', ?, ?, ?)`),
    stillHeld: db.prepare<[string], number>(`SELECT 1 FROM evidence_items WHERE sha256 = ? AND state = 'captured' LIMIT 1`).pluck(),
    eraseSanction: db.prepare(`UPDATE sanctions SET reason = NULL, lift_reason = NULL, evidence = ?, statement = ? WHERE id = ?`),
    eraseFeedAppeal: db.prepare(`UPDATE sanction_events SET appeal = json_set(appeal, '$.reason', '${ERASED_TEXT}') WHERE sanction_id = ? AND appeal IS NOT NULL`),
    eraseAppeal: db.prepare(`UPDATE appeals SET statement = '${ERASED_TEXT}', decision_reason = CASE WHEN decision_reason IS NULL THEN NULL ELSE '${ERASED_TEXT}' END WHERE id = ?`),
    eraseAppealEvents: db.prepare(`UPDATE appeal_events SET reason = NULL WHERE appeal_id = ? AND reason IS NOT NULL`),
  };

  return {
    /** The holds active at `at`; the sanction holds are read once, the others as asked. */
    holdsAt(at: number): HoldsAt {
      const sanctionHolds = q.activeSanctionHolds.all(at).map((hold) => ({ hold, caseId: q.sanctionCase.get(hold.target_id) ?? null }));
      const on = (targets: HoldTarget[]): HoldRow | null => {
        for (const t of targets) {
          const row = q.activeHoldOn.get(t.type, t.id, at);
          if (row) return row;
        }
        return null;
      };
      return {
        on,
        ofCase: (caseId, userId) =>
          on([{ type: 'player', id: userId }, ...(caseId === null ? [] : [{ type: 'case' as const, id: caseId }])]) ??
          (caseId === null ? null : (sanctionHolds.find((h) => h.caseId === caseId)?.hold ?? null)),
      };
    },

    /**
     * The report's captured evidence marked deleted, each with an audit entry saying why (`note`),
     * and the failure details of its items and audit (they may name a host) cleared. Answers how
     * many items went and their hashes (whether a hash is still held: stillHeld).
     */
    deleteReportEvidence(reportId: string, at: number, note: string): { items: number; hashes: string[] } {
      const hashes: string[] = [];
      const items = q.capturedOf.all(reportId);
      for (const item of items) {
        if (item.sha256 !== null) hashes.push(item.sha256);
        q.markDeleted.run(at, reportId, item.idx);
        q.evidenceAudit.run(reportId, item.idx, item.sha256, note, at);
      }
      this.scrubEvidenceDetails(reportId);
      return { items: items.length, hashes };
    },

    /** The failure details of a report's evidence items and of their audit entries (they may name a host), cleared. */
    scrubEvidenceDetails(reportId: string): void {
      q.scrubItemDetail.run(reportId);
      q.scrubAuditDetail.run(reportId);
    },

    /** Whether a captured item still holds these bytes (else they may go). */
    stillHeld: (sha256: string): boolean => q.stillHeld.get(sha256) !== undefined,

    /** A sanction's reason, lift reason, evidence links and statement's reason erased, and its feed's appeal reasons; true when anything changed. */
    eraseSanction(row: SanctionRow): boolean {
      const sanction = toSanction(row);
      const evidence = JSON.stringify(eraseSanctionEvidence(sanction.evidence));
      const statement = sanction.statement === null ? null : JSON.stringify(eraseStatement(sanction.statement));
      if (sanction.reason === null && sanction.liftReason === null && evidence === row.evidence && statement === row.statement) return false;
      q.eraseSanction.run(evidence, statement, sanction.id);
      q.eraseFeedAppeal.run(sanction.id);
      return true;
    },

    /** An appeal's statement and its reviewer's reason erased, in its audit and its sanction's feed too; true when anything changed. */
    eraseAppeal(appeal: Pick<AppealRecord, 'id' | 'sanctionId' | 'statement' | 'decisionReason'>): boolean {
      if (!appealNotErased(appeal)) return false;
      q.eraseAppeal.run(appeal.id);
      q.eraseAppealEvents.run(appeal.id);
      q.eraseFeedAppeal.run(appeal.sanctionId);
      return true;
    },
  };
}

export type PrivacyRules = ReturnType<typeof privacyRules>;
