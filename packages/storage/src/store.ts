import type {
  ApiKeyRecord,
  CaseEvent,
  CaseMessageRecord,
  CaseQuery,
  CaseRecord,
  CaseTriageRecord,
  ChatMessageRecord,
  DeliveryRecord,
  EvidenceAuditEntry,
  EvidenceItemRecord,
  EvidenceKey,
  EffectRecord,
  ModeratorRecord,
  NewReport,
  Page,
  ReportRecord,
  ReporterRecord,
  ReporterStats,
  ReportOutcome,
  SavedReport,
  SanctionActivation,
  SanctionBatch,
  SanctionEnd,
  StoredSanction,
  SanctionEvent,
  SanctionRecord,
  SanctionFilter,
  SanctionSummary,
  SanctionTally,
  Transition,
  TriagedCase,
  UserRecord,
} from './records.js';
import type { CaseTimeline, OpenCaseSummary, SlaBreach } from './records.js';
import type { AppealEvent, AppealQuery, AppealRecord, AppealTransition, NewAppeal } from './appeal-records.js';
import type { StatementPage, TransparencyFigures, TransparencyPeriod, TransparencyQuery } from './transparency-records.js';

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
  /** True while the player has an active sanction that blocks login. */
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
  /** Each reporter of the case once, by platform then id. */
  caseReporters(caseId: string): Promise<ReporterRecord[]>;

  /**
   * One atomic compare-and-set: applies the transition only if the case is still at
   * expectedVersion and expectedState, records the event, and applies the ban change, all or
   * nothing. Returns the updated case, or null when the case moved on (the caller re-reads).
   * Throws OpenCaseConflictError when reopening would give the user two open cases.
   */
  transitionCase(transition: Transition): Promise<CaseRecord | null>;
  /**
   * Finishes the per-report work of a decision (each report's outcome, each reporter's
   * credibility; an appeal's overturn: the credibility) if a stopped process left it unfinished;
   * idempotent. The MongoDB store settles it
   * after the decision's commit, a bounded page per transaction, before transitionCase returns; the
   * SQLite store does it in the decision's transaction and has nothing left to do. Run by the
   * decision's `reports.settle` effect.
   */
  settleDecision(decisionId: string): Promise<void>;
  findDecision(decisionId: string): Promise<CaseEvent | null>;
  /** Oldest first. */
  caseHistory(caseId: string): Promise<CaseEvent[]>;
  /** The last event of the case's history; null when it has none. */
  lastCaseEvent(caseId: string): Promise<CaseEvent | null>;

  /** Idempotent on dedupeKey: the same key returns the message first recorded. */
  recordMessage(message: Omit<ChatMessageRecord, 'id' | 'createdAt' | 'editedAt'>): Promise<ChatMessageRecord>;
  /** Replaces a recorded message's content and sets editedAt; null when no message has that id. */
  editMessage(id: string, content: string, at: number): Promise<ChatMessageRecord | null>;
  /** Newest first (by creation; an edit does not move a message). */
  listMessages(limit: number): Promise<ChatMessageRecord[]>;

  /** The chat message currently showing the case, or null before it was first posted. */
  getCaseMessage(caseId: string): Promise<CaseMessageRecord | null>;
  /** Inserts or replaces the case's message (a re-post on undo replaces it). */
  setCaseMessage(message: CaseMessageRecord): Promise<void>;

  findDelivery(key: string): Promise<DeliveryRecord | null>;
  /** Idempotent on key: the first record wins and is returned; a later one changes nothing. */
  recordDelivery(delivery: DeliveryRecord): Promise<DeliveryRecord>;

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
  /** Every sanction of the player, newest first. */
  sanctionsOfUser(userId: string): Promise<SanctionRecord[]>;
  /** The same sanctions, in the same order, as summaries; with a filter, only those it matches. */
  sanctionSummariesOfUser(userId: string, filter?: SanctionFilter): Promise<SanctionSummary[]>;
  /** The player's sanctions counted by state (all zero for a player without any). */
  sanctionTallyOfUser(userId: string): Promise<SanctionTally>;
  getSanction(id: string): Promise<SanctionRecord | null>;
  /**
   * Stores a trusted system's sanctions in one transaction, each with its effects (recorded only
   * when created). Idempotent per item on its idempotencyKey within its creator (moderatorId): a
   * key that creator already stored answers that sanction with created: false and changes nothing,
   * also when two calls race; another creator's same key is another sanction. Items are stored
   * `scheduled` (no feed event) when the batch has an effectiveAt, else active with their feed
   * event. Answers one entry per item, in order.
   */
  createSanctions(batch: SanctionBatch): Promise<StoredSanction[]>;
  /** Scheduled sanctions whose effectiveAt is at or before `at`, soonest first. */
  dueScheduledSanctions(at: number, limit: number): Promise<SanctionRecord[]>;
  /**
   * Makes the named scheduled sanctions active, each with its feed event, and records the effects,
   * all in one transaction. Returns those it activated (one no longer scheduled is skipped).
   */
  activateSanctions(activation: SanctionActivation): Promise<SanctionRecord[]>;
  /**
   * Lifts an active (or scheduled) sanction by hand, with its feed event and effects, in one transaction. null
   * when no such sanction is active (unknown, lifted or expired already).
   */
  liftSanction(end: SanctionEnd): Promise<SanctionRecord | null>;
  /** Expires an active sanction whose expiresAt is at or before `end.at`, like liftSanction; else null. */
  expireSanction(end: SanctionEnd): Promise<SanctionRecord | null>;
  /** Active sanctions whose expiresAt has passed, soonest first. */
  dueSanctions(at: number, limit: number): Promise<SanctionRecord[]>;
  /**
   * Ids of the players with an active login-blocking sanction, in id order, after `afterUserId` ('' to start), at
   * most `limit` (to rebuild Redis's ban flags a page at a time). An empty page is the end.
   */
  bannedUserIds(afterUserId: string, limit: number): Promise<string[]>;
  /**
   * The feed: sanction changes with seq > after, in seq order. A reader paging by the last seq it
   * saw never misses a change, even one committing during its read (see docs/sanctions.md).
   */
  sanctionFeed(after: number, limit: number): Promise<SanctionEvent[]>;
  /** The feed events of one sanction, in seq order. */
  sanctionEventsOf(sanctionId: string): Promise<SanctionEvent[]>;

  /** Effects not done yet of one source (a decision or a sanction change), in recording order. */
  pendingEffectsOf(sourceId: string): Promise<EffectRecord[]>;
  /** Effects not done yet recorded at or before `createdBefore`, oldest first. */
  pendingEffects(createdBefore: number, limit: number): Promise<EffectRecord[]>;
  /** Marks effects done, in one write; idempotent. */
  completeEffects(ids: string[], at: number): Promise<void>;
  /** Deletes up to `limit` effects marked done before `doneBefore` (never a pending one); answers how many. */
  pruneEffects(doneBefore: number, limit: number): Promise<number>;
  // Triage (docs/triage.md). transitionCase also keeps ReporterStats: a transition into approved
  // or dismissed counts the case's reporters, the undo of one uncounts them, in its transaction.
  /** The case's reports, oldest first. */
  caseReports(caseId: string): Promise<ReportRecord[]>;
  /** Stats of the reporters asked for that have any; a reporter never decided on is left out. */
  reporterStats(reporters: ReporterRecord[]): Promise<ReporterStats[]>;
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
   * Every stored report, a page at a time in the store's own order (not time order), for replays.
   * Pass the returned cursor to get the next page; null when there is no more. A scan returns every
   * report stored before it began exactly once; a report stored during it at most once (SQLite:
   * always, in rowid order; MongoDB: when its id sorts after the cursor; docs/decisions.md).
   */
  scanReports(cursor: string | null, limit: number): Promise<{ reports: ReportRecord[]; cursor: string | null }>;

  // Reporter outcomes (docs/reporter-outcomes.md). transitionCase keeps them: a decision gives each
  // report of the case its outcome, an undo marks each reopened, before it returns (settleDecision).
  /**
   * The reporter's reports whose case was decided (or reopened by an undo), each once, in the order
   * of its latest change (seq), with seq > `after`, at most `limit`. A reader paging by the last seq
   * it saw misses no change, even one committing during its read.
   */
  reporterOutcomes(reporter: ReporterRecord, after: number, limit: number): Promise<ReportOutcome[]>;

  // Evidence (docs/evidence.md).
  /**
   * Records a capture's outcome and its audit entry, together. A captured or deleted item is
   * settled: recording it again changes nothing and returns what was recorded first (a redelivered
   * job). A failed item is replaced by a later outcome (a retry that succeeded).
   */
  recordEvidence(item: EvidenceItemRecord): Promise<EvidenceItemRecord>;
  /** The recorded items of these reports, by report id then index. */
  evidenceOfReports(reportIds: string[]): Promise<EvidenceItemRecord[]>;
  /** The audit entries of one report's evidence, oldest first. */
  evidenceAudit(reportId: string): Promise<EvidenceAuditEntry[]>;
  /**
   * A page of the retention sweep: the next `limit` captured items after `cursor` (null to start),
   * in the store's own order, of which it answers those retention may delete (their case decided,
   * approved or dismissed, before `decidedBefore`, with no active sanction and no appeal waiting
   * for a decision), and the cursor of the next page (null at the end). An item held by a
   * sanction is examined once per sweep, not on every page; a page may hold no item and not be the
   * last. A limit of 0 answers nothing and the same cursor.
   */
  expiredEvidence(decidedBefore: number, cursor: string | null, limit: number): Promise<{ items: EvidenceItemRecord[]; cursor: string | null }>;
  /**
   * Marks captured items deleted (others are left as they are), each with its audit entry, in one
   * transaction. Returns the SHA-256s that no captured item holds any more: their bytes may go.
   */
  deleteEvidence(keys: EvidenceKey[], at: number): Promise<string[]>;

  // Appeals (docs/appeals.md).
  /**
   * Stores an appeal with its `submit` audit event and its effects, in one transaction, unless its
   * sanction has an appeal already: that one is then answered with created: false and nothing
   * changes, also when two submissions race (a unique index on the sanction stands behind it).
   */
  createAppeal(appeal: NewAppeal): Promise<{ appeal: AppealRecord; created: boolean }>;
  getAppeal(id: string): Promise<AppealRecord | null>;
  /** Appeals matching the query, oldest first (createdAt, then id), after the cursor, at most `limit`. */
  listAppeals(query: AppealQuery): Promise<AppealRecord[]>;
  /**
   * One atomic compare-and-set, as transitionCase: applies the transition only if the appeal is
   * still at expectedVersion and expectedState, with its audit event, and for a resolution the
   * sanction's lift (overturn), the reporters' counts, the feed events and the effects, all or
   * nothing. null when the appeal moved on (the caller re-reads) or is unknown.
   */
  transitionAppeal(transition: AppealTransition): Promise<AppealRecord | null>;
  findAppealDecision(decisionId: string): Promise<AppealEvent | null>;
  /** The appeal's audit, oldest first (submit, claims, resolution). */
  appealHistory(appealId: string): Promise<AppealEvent[]>;
  /** Flags the appeal as escalated for waiting past its SLA; true when this call flagged it. */
  recordAppealSlaBreach(appealId: string): Promise<boolean>;
  /** Appeals submitted or decided at or after `since`, oldest first (for the stats). */
  appealsSince(since: number): Promise<AppealRecord[]>;
  // Transparency (docs/transparency.md): aggregated in the store, never by loading every record.
  /** The period's figures: reports by category and platform, decisions, sanctions by kind, ground and automation, median time to decision. */
  transparencyFigures(query: TransparencyQuery): Promise<TransparencyFigures>;
  /**
   * Sanctions with a statement of reasons whose restriction took effect in the period (a
   * scheduled one not yet, and one lifted before its wave started, are left out), ordered by that
   * time then id, a page at a time: pass the returned cursor (null to start) until it is null.
   */
  statementsIn(period: TransparencyPeriod, cursor: string | null, limit: number): Promise<StatementPage>;

  close(): Promise<void>;
}
