import type { ReporterRecord } from './reports.js';

/** How a reporter's reports ended: cases approved and dismissed with one of their reports in it. */
export interface ReporterStats extends ReporterRecord {
  approved: number;
  dismissed: number;
}

/**
 * What a reporter may learn of a report of theirs (docs/reporter-outcomes.md): whether its case's
 * decision took action, never the penalty. One per report, at the position (`seq`) of its latest
 * change: a decision moves it to the end, and so does the undo of one (`reopened`, not actioned).
 */
export interface ReportOutcome {
  /** Strictly increasing in the order the changes committed: the reporter's cursor. */
  seq: number;
  reportId: string;
  caseId: string;
  /** True when the case was approved (a sanction was set); false when dismissed or reopened. */
  actioned: boolean;
  /** True when the decision was undone and the case is under review again. */
  reopened: boolean;
  /** When the decision (or its undo) was applied, ms since the epoch. */
  at: number;
}

/** What reporters learn and earn: each report's outcome (docs/reporter-outcomes.md) and their credibility (docs/triage.md). A decision keeps both (transitionCase, settleDecision). */
export interface ReporterStore {
  /** Stats of the reporters asked for that have any; a reporter never decided on is left out. */
  reporterStats(reporters: ReporterRecord[]): Promise<ReporterStats[]>;
  /**
   * The reporter's reports whose case was decided (or reopened by an undo), each once, in the order
   * of its latest change (seq), with seq > `after`, at most `limit`. A reader paging by the last seq
   * it saw misses no change, even one committing during its read.
   */
  reporterOutcomes(reporter: ReporterRecord, after: number, limit: number): Promise<ReportOutcome[]>;
}
