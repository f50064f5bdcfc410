import type {
  ApiKeyRecord,
  CaseEvent,
  CaseRecord,
  ChatMessageRecord,
  ModeratorRecord,
  NewReport,
  Page,
  ReportRecord,
  SavedReport,
  Transition,
  UserRecord,
} from './records.js';

/**
 * The storage port. It speaks the domain; no adapter detail (SQL, filters, handles) appears here.
 * Every method is safe to call from several processes at once.
 */
export interface Store {
  readonly kind: 'sqlite' | 'mongodb';

  createApiKey(key: ApiKeyRecord): Promise<void>;
  getApiKey(key: string): Promise<ApiKeyRecord | null>;
  listApiKeys(): Promise<ApiKeyRecord[]>;
  /** Returns false when no such key exists or it was already revoked. */
  revokeApiKey(key: string, at: number): Promise<boolean>;

  addUser(user: UserRecord): Promise<void>;
  getUser(id: string): Promise<UserRecord | null>;
  isBanned(userId: string): Promise<boolean>;

  addModerator(moderator: ModeratorRecord): Promise<void>;
  getModerator(id: string): Promise<ModeratorRecord | null>;
  listModerators(): Promise<ModeratorRecord[]>;

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
  caseReporterIds(caseId: string): Promise<string[]>;

  /**
   * One atomic compare-and-set: applies the transition only if the case is still at
   * expectedVersion and expectedState, records the event, and applies the ban change, all or
   * nothing. Returns the updated case, or null when the case moved on (the caller re-reads).
   * Throws OpenCaseConflictError when reopening would give the user two open cases.
   */
  transitionCase(transition: Transition): Promise<CaseRecord | null>;
  findDecision(decisionId: string): Promise<CaseEvent | null>;
  /** Oldest first. */
  caseHistory(caseId: string): Promise<CaseEvent[]>;

  /** Idempotent on dedupeKey: the same key returns the message first recorded. */
  recordMessage(message: Omit<ChatMessageRecord, 'id' | 'createdAt'>): Promise<ChatMessageRecord>;
  listMessages(limit: number): Promise<ChatMessageRecord[]>;

  close(): Promise<void>;
}
