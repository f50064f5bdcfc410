import type { AccountStore, CaseState, ReportStore, TriageStore } from '@rm/storage';

/** What a case message shows, read from the store when the message is written. */
export interface CaseView {
  caseId: string;
  userId: string;
  /** The player's name when the first report was taken in. */
  userName: string;
  state: CaseState;
  /** Username of the moderator who holds or decided the case. */
  moderatorName: string | null;
  reportIds: string[];
  /** The case's triage flags (`suspected_brigade`, `escalated`); none before it is triaged. */
  flags?: string[];
}

/** null when no such case exists. */
export async function loadCaseView(store: ReportStore & TriageStore & AccountStore, caseId: string): Promise<CaseView | null> {
  const [c, reportIds, triage] = await Promise.all([store.getCase(caseId), store.caseReportIds(caseId), store.getCaseTriage(caseId)]);
  if (!c) return null;
  const [first, moderator] = await Promise.all([
    reportIds[0] ? store.getReport(reportIds[0]) : null,
    c.claimedBy ? store.getModerator(c.claimedBy) : null,
  ]);
  return {
    caseId: c.id,
    userId: c.userId,
    userName: first?.user.name ?? c.userId,
    state: c.state,
    moderatorName: c.claimedBy ? (moderator?.username ?? c.claimedBy) : null,
    reportIds,
    flags: triage?.flags ?? [],
  };
}
