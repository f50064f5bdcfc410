export type CaseState = 'open' | 'claimed' | 'approved' | 'dismissed';

export const OPEN_STATES: readonly CaseState[] = ['open', 'claimed'];

export const DECIDED_STATES: readonly CaseState[] = ['approved', 'dismissed'];

/** Who made a report: a platform and an id there (the same id on two platforms is two people). */
export interface ReporterRecord {
  platform: string;
  id: string;
}

export interface NewReport {
  id: string;
  userId: string;
  reporterId: string;
  reporterPlatform: string;
  reportType: string | null;
  answers: { questionId: string; answer: string }[];
  evidence: { url: string; type: string; createEvidence?: boolean | undefined }[];
  receivedAt: number;
  /** The reported user's directory data when the report was taken in. */
  user: { name: string; displayName: string; avatar: string | null };
}

export interface ReportRecord extends NewReport {
  caseId: string;
}

export interface SavedReport {
  reportId: string;
  caseId: string;
  /** false when the report id was already stored: nothing changed. */
  created: boolean;
  /** true when this report opened a new case rather than joining the open one. */
  openedCase: boolean;
}

export interface CaseRecord {
  id: string;
  userId: string;
  state: CaseState;
  claimedBy: string | null;
  /** Incremented by every transition: the compare-and-set token. */
  version: number;
  createdAt: number;
  updatedAt: number;
  /**
   * True once the case waited unclaimed past its SLA at any of its openings (recordSlaBreach):
   * sticky, shown and filtered on as the flag SLA_BREACHED_FLAG beside the triage's flags.
   */
  slaBreached: boolean;
}

export interface Page {
  offset: number;
  limit: number;
}

/** Reports and the cases they open or join. */
export interface ReportStore {
  /**
   * Stores reports, each joining its user's open case or opening one. Idempotent on the report
   * id: a report already stored is reported with created: false and changes nothing.
   */
  saveReports(reports: NewReport[]): Promise<SavedReport[]>;
  getReport(id: string): Promise<ReportRecord | null>;
  /** Newest first. */
  listReportsByUser(userId: string, page: Page): Promise<{ total: number; reports: ReportRecord[] }>;
  getCase(caseId: string): Promise<CaseRecord | null>;
  openCaseOfUser(userId: string): Promise<CaseRecord | null>;
  /** Ids of the case's reports, oldest first. */
  caseReportIds(caseId: string): Promise<string[]>;
  /** Each reporter of the case once, by platform then id. */
  caseReporters(caseId: string): Promise<ReporterRecord[]>;
  /** The case's reports, oldest first. */
  caseReports(caseId: string): Promise<ReportRecord[]>;
  /**
   * Every stored report, a page at a time in the store's own order (not time order), for replays.
   * Pass the returned cursor to get the next page; null when there is no more. A scan returns every
   * report stored before it began exactly once; a report stored during it at most once (SQLite:
   * always, in rowid order; MongoDB: when its id sorts after the cursor; docs/decisions.md).
   */
  scanReports(cursor: string | null, limit: number): Promise<{ reports: ReportRecord[]; cursor: string | null }>;
}
