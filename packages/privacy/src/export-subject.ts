import { randomUUID } from 'node:crypto';
import { privacySubjectRef, type EvidenceStore, type HoldRecord, type PrivacyStore, type PrivacySubject, type ReportRecord } from '@rm/storage';

/** One part of an export: what it is, why it is kept, for how long, and the records. */
export interface ExportPart {
  part: string;
  what: string;
  why: string;
  retention: string;
  items: unknown[];
}

export interface SubjectExport {
  requestId: string;
  subject: PrivacySubject;
  generatedAt: string;
  parts: ExportPart[];
}

export interface ExportDeps {
  store: Pick<PrivacyStore, 'subjectReports' | 'subjectRecords' | 'recordPrivacyAudit'> & Pick<EvidenceStore, 'evidenceOfReports'>;
  now?: () => number;
}

/** What a player's export says in place of what it withholds (see `forThePlayer`). */
export const WITHHELD = '[withheld]';

/**
 * A player's copy leaves out other people's data whose disclosure would harm them (GDPR Art.
 * 15(4)): who reported the player (a reporter named to the player they reported risks retaliation)
 * and what a legal hold says and who placed it (an investigation it serves; Art. 23). That a
 * report or a hold exists, and what the report says of the player, stay.
 */
const forThePlayer = {
  report: <R extends ReportRecord>(r: R): R => ({ ...r, reporterId: WITHHELD, reporterPlatform: WITHHELD }),
  hold: (h: HoldRecord) => ({ ...h, reason: WITHHELD, placedBy: WITHHELD, releasedBy: h.releasedBy === null ? null : WITHHELD, releaseReason: h.releaseReason === null ? null : WITHHELD }),
};

/** Reports read per page: a much-reported player (10,000 reports) is read in 20 bounded reads. */
export const EXPORT_PAGE = 500;

/**
 * Everything held about a subject (GDPR Art. 15 and 20) as one JSON document, each part saying what
 * it is and why it is kept (docs/privacy.md). Reports are read a page at a time; `onProgress` hears
 * how many so far. The export is recorded in the privacy audit, by the subject's hash.
 */
export async function exportSubject(deps: ExportDeps, subject: PrivacySubject, actor: string, onProgress?: (reports: number) => void): Promise<SubjectExport> {
  const now = (deps.now ?? Date.now)();
  const reports: (ReportRecord & { evidenceItems: unknown[] })[] = [];
  for (let cursor: string | null = null; ; ) {
    const page = await deps.store.subjectReports(subject, cursor, EXPORT_PAGE);
    const evidence = await deps.store.evidenceOfReports(page.reports.map((r) => r.id));
    for (const r of page.reports) {
      const shown = subject.kind === 'player' ? forThePlayer.report(r) : r;
      reports.push({ ...shown, evidenceItems: evidence.filter((e) => e.reportId === r.id) });
    }
    onProgress?.(reports.length);
    if (page.cursor === null) break;
    cursor = page.cursor;
  }
  const records = await deps.store.subjectRecords(subject);
  const player = subject.kind === 'player';
  const parts: ExportPart[] = [
    ...(player
      ? [
          {
            part: 'directory_record',
            what: "The player's name, display name and avatar as the user directory gave them",
            why: 'Shown to moderators with the reports about the player',
            retention: 'Until erased',
            items: records.user ? [records.user] : [],
          },
        ]
      : []),
    {
      part: 'reports',
      what: player
        ? 'Reports about the player: the answers, evidence links, the name the player had then, and each kept evidence item (who reported is withheld: their rights, GDPR Art. 15(4))'
        : "The reporter's reports: the player reported, their answers and evidence links, and each kept evidence item",
      why: 'Moderators decide on them; the category counts in triage and in the DSA transparency figures',
      retention:
        "After the case is decided, for the policy's retention: names (retention.directoryNames), free text and links (retention.reportText), the reporter's id (retention.reporterIdentity, then a pseudonym), a dismissed case's all of it (retention.dismissedCases); kept evidence bytes for evidence.retention; never while a hold, an active sanction or a waiting appeal keeps the case; sooner if erased",
      items: reports,
    },
    ...(player
      ? [
          { part: 'cases', what: "The player's cases and every decision on them (moderator, action, time)", why: 'The moderation record and its audit', retention: "Kept: no free text; a dismissed case's player id becomes a pseudonym after the policy's retention.dismissedCases", items: records.cases },
          {
            part: 'sanctions',
            what: "Restrictions of the player with their statement of reasons",
            why: 'Enforcement (the ban API), the penalty ladder and the DSA statements of reasons',
            retention: "Kept while active and for the ladder; free text for the policy's retention.reportText after the case's decision once ended, or until erased",
            items: records.sanctions,
          },
          { part: 'appeals', what: "The player's appeals: their statement and the reviewer's decision", why: 'Redress (DSA Art. 20)', retention: "The statement and the reviewer's reason for the policy's retention.appealStatements after the decision, or until erased", items: records.appeals },
          {
            part: 'holds',
            what: 'Legal holds on the player, their cases or sanctions (their reasons and who placed them are withheld)',
            why: 'A legal obligation or claim keeps the data they hold',
            retention: 'Until released or ended',
            items: records.holds.map(forThePlayer.hold),
          },
        ]
      : [
          {
            part: 'reporter_credibility',
            what: "How many cases with a report of the reporter's were approved and dismissed",
            why: "Triage weighs a report by its reporter's record",
            retention: 'Until erased',
            items: records.reporterStats ? [records.reporterStats] : [],
          },
          { part: 'report_outcomes', what: 'What the reporter was told of their reports (action taken or not)', why: 'DSA Art. 16(5): notice of the decision', retention: "The reporter's id for the policy's retention.reporterIdentity after the decision (then a pseudonym), or until erased", items: records.outcomes },
        ]),
  ];
  const requestId = randomUUID();
  await deps.store.recordPrivacyAudit({ action: 'export', requestId, subjectRef: privacySubjectRef(subject), actor, at: now, detail: { reports: reports.length } });
  return { requestId, subject, generatedAt: new Date(now).toISOString(), parts };
}
