import { isKeptEvidence, type EvidenceItemView } from '@rm/contracts';
import type { EvidenceItemRecord, ReportRecord } from '@rm/storage';

/** Where a moderator fetches our kept copy of an item (never the player-supplied URL). */
export const copyUrlOf = (reportId: string, index: number) => `/v1/reports/${encodeURIComponent(reportId)}/evidence/${index}`;

/** A report's items asked to be kept, each with its recorded outcome, or pending when there is none yet. */
export function evidenceItemsOf(report: Pick<ReportRecord, 'id' | 'evidence'>, recorded: EvidenceItemRecord[]): EvidenceItemView[] {
  return report.evidence.flatMap((e, index): EvidenceItemView[] => {
    if (!isKeptEvidence(e)) return [];
    const item = recorded.find((r) => r.reportId === report.id && r.index === index);
    if (!item) return [{ index, state: 'pending', failure: null, detail: null, sha256: null, size: null, contentType: null, capturedAt: null, copyUrl: null }];
    return [
      {
        index,
        state: item.state,
        failure: item.failure,
        detail: item.detail,
        sha256: item.sha256,
        size: item.size,
        contentType: item.contentType,
        capturedAt: item.capturedAt,
        copyUrl: item.state === 'captured' ? copyUrlOf(report.id, index) : null,
      },
    ];
  });
}
