import type { CaseEvent } from './decisions.js';
import type { CaseRecord, CaseState, Page } from './reports.js';

/** The flag of a case escalated for waiting past its SLA, as the case API shows and filters it. */
export const SLA_BREACHED_FLAG = 'sla_breached';

/** An open or claimed case as the queue-health figures need it. */
export interface OpenCaseSummary {
  caseId: string;
  userId: string;
  state: 'open' | 'claimed';
  claimedBy: string | null;
  createdAt: number;
  /** True once the case was escalated for waiting unclaimed past its SLA (at any of its openings). */
  slaBreached: boolean;
}

/** A case and every decision about it, oldest first: enough to time claims and decisions. */
export interface CaseTimeline {
  caseId: string;
  userId: string;
  createdAt: number;
  events: Pick<CaseEvent, 'decisionId' | 'action' | 'moderatorId' | 'at'>[];
}

/** A case that waited unclaimed past its SLA, recorded once per opening of the case. */
export interface SlaBreach {
  caseId: string;
  /** `opened` for the case's creation, else the id of the undo that reopened it. */
  openingId: string;
  category: string;
  at: number;
}

/** A case's triage as last computed (packages/triage): kept per case, read by the case API. */
export interface CaseTriageRecord {
  caseId: string;
  /** Without the age term, which is added at read time. */
  priority: number;
  reportCount: number;
  distinctReporters: number;
  categories: string[];
  /** e.g. `suspected_brigade`, `escalated`. */
  flags: string[];
  /** Ids of the automatic rules that acted on the case (each acts once per case). */
  firedRules: string[];
  lastReportAt: number;
  updatedAt: number;
}

export type CaseSort = 'priority' | 'oldest' | 'newest';

/** What GET /v1/cases asks the store for. */
export interface CaseQuery {
  states: CaseState[];
  category?: string | undefined;
  flag?: string | undefined;
  sort: CaseSort;
  /** For sort=priority: the priority an open case gains per hour since it opened, as of `now`. */
  agePerHour: number;
  now: number;
  page: Page;
}

export interface TriagedCase {
  case: CaseRecord;
  triage: CaseTriageRecord;
}

/** Triage (docs/triage.md) and queue health (GET /v1/stats, SLA escalations). */
export interface TriageStore {
  getCaseTriage(caseId: string): Promise<CaseTriageRecord | null>;
  /**
   * The triage of these cases in one read, in no particular order; a case without one (or unknown)
   * is left out. For callers that read many cases' triage at once (triageOfCases pages them).
   */
  caseTriages(caseIds: string[]): Promise<CaseTriageRecord[]>;
  /** Inserts or replaces the case's triage. */
  setCaseTriage(triage: CaseTriageRecord): Promise<void>;
  /** Triaged cases matching the query, sorted and paged; `total` counts every match. */
  listCases(query: CaseQuery): Promise<{ total: number; cases: TriagedCase[] }>;
  /**
   * Records that a case waited unclaimed past its SLA and flags the case, together. Idempotent
   * per (case, opening): true when this call recorded it, false when it was already recorded or no
   * such case exists (nothing is recorded then).
   */
  recordSlaBreach(breach: SlaBreach): Promise<boolean>;
  /** SLA breaches recorded at or after `since`, oldest first. */
  slaBreachesSince(since: number): Promise<SlaBreach[]>;
  /**
   * Open and claimed cases by case id, after `afterId` ('' to start), at most `limit`: a page of
   * the queue (for its health figures and to rebuild Redis's open-case marks). allOpenCases()
   * reads every page.
   */
  openCases(afterId: string, limit: number): Promise<OpenCaseSummary[]>;
  /** Reports received (accepted by a gateway) at or after `since`. */
  countReportsSince(since: number): Promise<number>;
  /** The cases with a decision at or after `since`, each with its whole history. */
  caseTimelinesSince(since: number): Promise<CaseTimeline[]>;
}
