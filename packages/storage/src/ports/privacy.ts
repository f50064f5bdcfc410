import type { AppealRecord } from './appeals.js';
import type { CaseEvent, CaseMessageRecord } from './decisions.js';
import type { ReportOutcome, ReporterStats } from './reporters.js';
import type { CaseRecord, CaseState, ReportRecord } from './reports.js';
import type { SanctionRecord } from './sanctions.js';
import type { UserRecord } from './accounts.js';

/**
 * Whom a data subject request is about (docs/privacy.md): a reported player (their game account
 * id), or a reporter (a platform and an id there: the same id on two platforms is two people).
 */
export type PrivacySubject = { kind: 'player'; userId: string } | { kind: 'reporter'; platform: string; reporterId: string };

/** What a legal hold keeps: a case, everything about a player, or a sanction (and its case). */
export type HoldTargetType = 'case' | 'player' | 'sanction';
export interface HoldTarget {
  type: HoldTargetType;
  id: string;
}

/**
 * A legal hold: while it is active (not released, and `until` not reached) neither erasure nor any
 * retention sweep touches what it holds; answers name it as the reason something was kept.
 */
export interface HoldRecord {
  id: string;
  target: HoldTarget;
  reason: string;
  /** When it ends on its own (ms since the epoch); null: until released. */
  until: number | null;
  /** Who placed it: the admin API key or the CLI's operator name. */
  placedBy: string;
  placedAt: number;
  releasedAt: number | null;
  releasedBy: string | null;
  releaseReason: string | null;
}

export type NewHold = Pick<HoldRecord, 'id' | 'target' | 'reason' | 'until' | 'placedBy' | 'placedAt'>;

export interface HoldRelease {
  id: string;
  by: string;
  reason: string | null;
  at: number;
}

/** What the privacy audit records: a request, a hold or a retention sweep, never the erased data itself. */
export type PrivacyAction = 'export' | 'erase' | 'hold' | 'release' | 'retention';

/**
 * One entry of the privacy audit trail. It names the subject only by `subjectRef`, a SHA-256 of
 * the subject (privacySubjectRef): enough to answer "was this person's request handled, and
 * when?" to someone who names them, without the trail itself spelling out whom it erased.
 */
export interface PrivacyAuditEntry {
  /** Strictly increasing in commit order. */
  seq: number;
  action: PrivacyAction;
  /** The request's id, the hold's, or the retention sweep's. */
  requestId: string;
  /** SHA-256 of the subject (or, for a hold, of its target), hex; empty for a retention sweep (it has no one subject). */
  subjectRef: string;
  actor: string;
  at: number;
  /** Counts and reasons only (how many reports erased, which holds kept what). */
  detail: Record<string, number | string | boolean>;
}

export type NewPrivacyAuditEntry = Omit<PrivacyAuditEntry, 'seq'>;

/** Everything held about a subject except their reports (which are paged: subjectReports). */
export interface SubjectRecords {
  /** The directory's copy of the player; null for a reporter or an unknown player. */
  user: UserRecord | null;
  /** The player's cases, oldest first, each with its decisions. */
  cases: { case: CaseRecord; history: CaseEvent[] }[];
  /** The player's sanctions, newest first. */
  sanctions: SanctionRecord[];
  /** The player's appeals, oldest first. */
  appeals: AppealRecord[];
  /** The reporter's credibility counts; null for a player or a reporter never decided on. */
  reporterStats: ReporterStats | null;
  /** What the reporter was told of their reports (at most the latest 10,000). */
  outcomes: ReportOutcome[];
  /** Holds on the player, their cases or sanctions (any state), oldest first. */
  holds: HoldRecord[];
}

/**
 * How a report's answers are erased: each answer becomes ERASED_TEXT, except the answer to
 * `categoryQuestionId` when it is one of `categories` (a label of the policy, not free text), so
 * the DSA transparency figures by category stay as they were.
 */
export interface AnswerKeep {
  categoryQuestionId: string;
  categories: string[];
}

/** One step of an erasure: a page of the subject's reports after `cursor`, then (last step) the rest. */
export interface ErasureStep {
  subject: PrivacySubject;
  /** Reports after this cursor (null to start); subjectReports' cursor. */
  cursor: string | null;
  /** Reports per step (one transaction each). */
  limit: number;
  keep: AnswerKeep;
  /** A reporter's erasure: what replaces their id, random and the same on every step (never derived from the id). */
  pseudonym: string;
  at: number;
  /** Compute what would change, change nothing. */
  dryRun: boolean;
}

/** Why something of the subject was kept. */
export type KeptReason = 'legal_hold' | 'active_sanction';

export interface KeptItem {
  /** What: `report`, `evidence`, `sanction`, `appeal`, `user`. */
  kind: string;
  id: string;
  reason: KeptReason;
  /** The hold that keeps it (reason legal_hold). */
  holdId?: string;
}

export interface ErasureStepOutcome {
  /** Reports whose personal data went (or would). */
  reports: number;
  /** Captured evidence items marked deleted, and SHA-256s no captured item holds any more (their bytes may go). */
  evidenceItems: number;
  unheldBlobs: string[];
  /** Appeals whose statement and reasons went; sanctions whose reason and evidence went. */
  appeals: number;
  sanctions: number;
  /** The directory's copy of the player removed; the reporter's credibility removed; reporter outcomes pseudonymised. */
  user: boolean;
  reporterStats: boolean;
  outcomes: number;
  /** The embedded chat recorder's DMs to the reporter (channel `dm:<id>`): content erased, recipient pseudonymised. */
  directMessages: number;
  /** Users with an open case one of the reporter's reports is in (their Redis reporters set names the reporter). */
  openCaseUsers: string[];
  kept: KeptItem[];
  /** The cursor of the next step; null when this step was the last (the non-report parts were done in it). */
  cursor: string | null;
}

/** The chat recorder's channel of the DMs to a chat-platform reporter (the notification worker's). */
export const dmChannel = (reporterId: string) => `dm:${reporterId}`;

/** The text that replaces erased free text and names. */
export const ERASED_TEXT = '[erased]';

/**
 * The kinds of personal data the retention sweep ends, each after its own duration (the policy's
 * `retention` section, docs/privacy.md#retention):
 * - `directoryNames`: the player's name, display name and avatar a report copied from the user
 *   directory, after its case is decided;
 * - `reportText`: the free text of a decided case (its reports' answers but the category label,
 *   their evidence links, their evidence's failure details, its ended sanctions' reasons);
 * - `reporterIdentity`: the reporter's id on a decided case's reports and their outcomes, replaced
 *   by a random pseudonym per reporter and case;
 * - `caseMessages`: a decided case's chat message, rewritten without the player (the caller edits
 *   it on the chat platform: the step answers the messages);
 * - `dismissedCases`: a dismissed case entire: all of the above, its kept evidence, and the player's
 *   id on its rows, replaced by a random pseudonym;
 * - `appealStatements`: a decided appeal's statement and its reviewer's reason;
 * - `auditEntries`: entries of the privacy audit trail.
 */
export const RETENTION_KINDS = ['directoryNames', 'reportText', 'reporterIdentity', 'caseMessages', 'dismissedCases', 'appealStatements', 'auditEntries'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

/**
 * What a retention sweep goes through: the policy's kinds, then `erasedPlayers`: the players an
 * erasure named, whose id stays on their rows while a sanction needs it (the ban API asks by it,
 * the ladder counts by it). Once none does (no sanction active or scheduled, none started within the
 * ladder's lookback, no appeal waiting, no open case, no hold), the id on the rows from before the
 * erasure (cases, reports, decisions' answers, sanctions, their feed events and appeals) becomes
 * a pseudonym, one per player.
 */
export const RETENTION_SWEEP_KINDS = [...RETENTION_KINDS, 'erasedPlayers'] as const;
export type RetentionSweepKind = (typeof RETENTION_SWEEP_KINDS)[number];

/**
 * Why the retention sweep left something past its time: a legal hold, a sanction still active, an
 * appeal still waiting for its decision; for an erased player also a sanction within the ladder's
 * lookback, and a case still open.
 */
export type RetentionKeptReason = 'legal_hold' | 'active_sanction' | 'open_appeal' | 'ladder_lookback' | 'open_case';

/** One step of a retention sweep of one kind: at most `limit` cases (appeals, audit entries, players) in one transaction. */
export interface RetentionStep {
  kind: RetentionSweepKind;
  /**
   * What counts from a time (a case's decision, an appeal's decision, an audit entry's time) before
   * this goes; for erasedPlayers, the start of the ladder's lookback (a sanction started since keeps the player's id).
   */
  before: number;
  /** Where the sweep is (the previous step's cursor); null to start: where the last sweep of this kind left off. */
  cursor: string | null;
  limit: number;
  /** reportText, dismissedCases: the answers that stay (the category label). */
  keep: AnswerKeep;
  /** Now: holds active then keep what they hold; the time recorded on deleted evidence. */
  at: number;
  /** Compute what would change, change nothing (not where the next sweep starts either). */
  dryRun: boolean;
}

export interface RetentionStepOutcome {
  /** Cases (appeals, audit entries, erased players) whose time had come, read in this step. */
  examined: number;
  /** Of those, the ones whose data went (or would): a case, appeal or entry with nothing left to erase is examined, not erased. */
  erased: number;
  /** Of those examined, the ones kept, by why; they are examined again by every sweep until nothing keeps them. */
  kept: Partial<Record<RetentionKeptReason, number>>;
  /** dismissedCases: captured evidence items marked deleted, and SHA-256s no captured item holds any more (their bytes may go). */
  evidenceItems: number;
  unheldBlobs: string[];
  /** caseMessages, dismissedCases: the chat messages of the erased cases, to be rewritten without the player. */
  caseMessages: (CaseMessageRecord & { state: CaseState; reports: number })[];
  /** Ids of the reports, cases and appeals erased (for erasedPlayers, the players): finished queue jobs naming them go too. */
  erasedIds: string[];
  /** The next step's cursor; null when this kind is done for this sweep. */
  cursor: string | null;
}

/**
 * Data subject requests, legal holds and retention (docs/privacy.md): everything held about a
 * player or a reporter, its erasure (except what an active sanction or a hold keeps), holds, the
 * retention sweep, and the audit of all of them. The retention sweep of evidence skips held items
 * too (EvidenceStore.expiredEvidence).
 */
export interface PrivacyStore {
  /** Places a hold, with its audit entry, in one transaction. Idempotent on id: a repeat answers the first with created: false. */
  placeHold(hold: NewHold): Promise<{ hold: HoldRecord; created: boolean }>;
  /** Releases an active hold, with its audit entry; null when no such hold is active. */
  releaseHold(release: HoldRelease): Promise<HoldRecord | null>;
  getHold(id: string): Promise<HoldRecord | null>;
  /** Holds placed on these targets, oldest first; with `activeAt`, only those active then. */
  holdsOn(targets: HoldTarget[], activeAt: number | null): Promise<HoldRecord[]>;
  /**
   * A page of the subject's reports (about the player, or made by the reporter), in the store's
   * order, after `cursor` (null to start), at most `limit`; the cursor is null after the last page.
   */
  subjectReports(subject: PrivacySubject, cursor: string | null, limit: number): Promise<{ reports: ReportRecord[]; cursor: string | null }>;
  /** Everything else held about the subject (their reports' evidence: EvidenceStore.evidenceOfReports). */
  subjectRecords(subject: PrivacySubject): Promise<SubjectRecords>;
  /**
   * One step of an erasure, in one transaction: the page of reports after the cursor lose their
   * personal data (a player's: names and free text; a reporter's: their identity, replaced by a
   * pseudonym, and free text), their captured evidence is marked deleted, unless a hold keeps them.
   * The last step (cursor null in the answer) also erases the rest: the player's directory record,
   * appeal statements and reasons, sanction reasons and evidence (an active sanction stays
   * enforceable: its user, kind, times and state stay), the reporter's credibility and outcomes;
   * and records the player as erased, for the retention sweep's `erasedPlayers`.
   * Repeating an erasure changes nothing more. A dry run answers the same and writes nothing.
   */
  eraseSubject(step: ErasureStep): Promise<ErasureStepOutcome>;
  /**
   * One step of the retention sweep of `step.kind`, in one transaction: the next `limit` cases
   * decided before `before` (appeals decided, audit entries recorded) lose that kind's data, unless
   * a legal hold active at `at` keeps them, or (cases) a sanction of the case is active or its appeal
   * waits for a decision. A kept case is examined again by each later sweep until nothing keeps it;
   * the rest are examined once: a sweep starts where the last one of its kind stopped (unless a dry
   * run), so its cost follows what came due since, not all history. Page until the cursor is null.
   * Repeating a step changes nothing more. A dry run answers the same and writes nothing.
   */
  sweepRetention(step: RetentionStep): Promise<RetentionStepOutcome>;
  recordPrivacyAudit(entry: NewPrivacyAuditEntry): Promise<PrivacyAuditEntry>;
  /** The audit trail after `afterSeq`, oldest first, at most `limit`. */
  privacyAudit(afterSeq: number, limit: number): Promise<PrivacyAuditEntry[]>;
}
