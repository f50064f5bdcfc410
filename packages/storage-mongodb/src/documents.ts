import type { ObjectId } from 'mongodb';
import type { AppealEvent, AppealRecord } from '@rm/storage';
import type {
  ApiKeyRecord,
  CaseEvent,
  CaseMessageRecord,
  CaseRecord,
  CaseState,
  CaseTriageRecord,
  ChatMessageRecord,
  DeliveryRecord,
  EffectRecord,
  EvidenceAuditEntry,
  EvidenceItemRecord,
  ModeratorRecord,
  NewReport,
  ReportRecord,
  SanctionEvent,
  SanctionRecord,
  UserRecord,
} from '@rm/storage';

/**
 * Document shapes as MongoDB stores them, and their mapping to records. Documents about a player
 * carry `userId`, the shard key of a sharded deployment. Times are milliseconds, as in the records.
 */

/** Documents keep a record's id as `_id`; every other field as the record has it. */
export type ApiKeyDoc = Omit<ApiKeyRecord, 'key'> & { _id: string };
export const toApiKeyDoc = (k: ApiKeyRecord): ApiKeyDoc => ({
  _id: k.key,
  name: k.name,
  secretHash: k.secretHash,
  permissions: [...k.permissions],
  elevated: k.elevated,
  admin: k.admin,
  rateLimit: k.rateLimit,
  createdAt: k.createdAt,
  revokedAt: k.revokedAt,
  ...(k.moderatorId !== undefined && { moderatorId: k.moderatorId }),
});
export const toApiKey = (d: ApiKeyDoc): ApiKeyRecord => ({
  key: d._id,
  name: d.name,
  secretHash: d.secretHash,
  permissions: d.permissions,
  elevated: d.elevated,
  admin: d.admin,
  rateLimit: d.rateLimit ?? null,
  createdAt: d.createdAt,
  revokedAt: d.revokedAt ?? null,
  ...(typeof d.moderatorId === 'string' && { moderatorId: d.moderatorId }),
});

/** `_id` is the player's id: the shard key of this collection. */
export type UserDoc = Omit<UserRecord, 'id'> & { _id: string };
export const toUserDoc = (u: UserRecord): UserDoc => ({ _id: u.id, name: u.name, displayName: u.displayName, avatar: u.avatar });
export const toUser = (d: UserDoc): UserRecord => ({ id: d._id, name: d.name, displayName: d.displayName, avatar: d.avatar ?? null });

export type ModeratorDoc = Omit<ModeratorRecord, 'id'> & { _id: string };
export const toModeratorDoc = (m: ModeratorRecord): ModeratorDoc => ({ _id: m.id, username: m.username, createdAt: m.createdAt });
export const toModerator = (d: ModeratorDoc): ModeratorRecord => ({ id: d._id, username: d.username, createdAt: d.createdAt });

export type CaseDoc = Omit<CaseRecord, 'id' | 'slaBreached'> & {
  _id: string;
  /**
   * Present, and true, only while the case is open or claimed: the unique partial index on
   * {userId} filters on it, so a user has at most one open case.
   */
  open?: true;
  /** The report that opened the case, so whichever process stores that report says openedCase. */
  openedBy: string;
  /** Set, and true, once the case waited unclaimed past its SLA (recordSlaBreach). */
  slaBreached?: true;
  /** The case's triage as last computed; absent until then. */
  triage?: Omit<CaseTriageRecord, 'caseId'>;
};
export const toCase = (d: CaseDoc): CaseRecord => ({
  id: d._id,
  userId: d.userId,
  state: d.state,
  claimedBy: d.claimedBy ?? null,
  version: d.version,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
  slaBreached: d.slaBreached === true,
});

export type ReportDoc = Omit<ReportRecord, 'id'> & {
  _id: string;
  /**
   * Present, and true, from the report's insert until its save saw its case open (or moved it off
   * a decided one): a save interrupted in between finishes it when the report is saved again
   * (save-reports.ts). Absent on reports of older versions.
   */
  pending?: true;
  /** The decision whose settlement last gave this report its outcome (settlements.ts). */
  settledBy?: string;
};

// createEvidence is written only when given, so a report reads back exactly as it was saved.
const toEvidence = (e: NewReport['evidence'][number]) => ({
  url: e.url,
  type: e.type,
  ...(typeof e.createEvidence === 'boolean' ? { createEvidence: e.createEvidence } : {}),
});

export const toReportDoc = (r: NewReport, caseId: string): ReportDoc => ({
  _id: r.id,
  caseId,
  userId: r.userId,
  reporterId: r.reporterId,
  reporterPlatform: r.reporterPlatform,
  reportType: r.reportType,
  answers: r.answers.map((a) => ({ questionId: a.questionId, answer: a.answer })),
  evidence: r.evidence.map(toEvidence),
  receivedAt: r.receivedAt,
  user: { name: r.user.name, displayName: r.user.displayName, avatar: r.user.avatar },
});
export const toReport = (d: ReportDoc): ReportRecord => ({
  id: d._id,
  caseId: d.caseId,
  userId: d.userId,
  reporterId: d.reporterId,
  reporterPlatform: d.reporterPlatform,
  reportType: d.reportType ?? null,
  answers: d.answers.map((a) => ({ questionId: a.questionId, answer: a.answer })),
  evidence: d.evidence.map(toEvidence),
  receivedAt: d.receivedAt,
  user: { name: d.user.name, displayName: d.user.displayName, avatar: d.user.avatar ?? null },
});

/** An audit event. `_id` is the driver's ObjectId; decisionId is unique through its own index. */
export interface EventDoc {
  caseId: string;
  userId: string;
  decisionId: string;
  /** The case version this event produced: orders a case's history without a counter. */
  seq: number;
  action: CaseEvent['action'];
  moderatorId: string;
  fromState: CaseState;
  toState: CaseState;
  at: number;
  result: unknown;
}
export const toEvent = (d: EventDoc): CaseEvent => ({
  caseId: d.caseId,
  decisionId: d.decisionId,
  action: d.action,
  moderatorId: d.moderatorId,
  fromState: d.fromState,
  toState: d.toState,
  at: d.at,
  result: d.result ?? null,
});

/** Earlier versions: one document per banned user. Migrated into sanctions at start (sanctions.ts). */
export interface BanDoc {
  /** The banned user's id. */
  _id: string;
  userId: string;
  caseId: string;
  at: number;
}

export type MessageDoc = Omit<ChatMessageRecord, 'id'> & {
  _id: string;
  /** From the messages counter: breaks ties between messages recorded in the same millisecond. */
  seq: number;
};
export const toMessage = (d: MessageDoc): ChatMessageRecord => ({
  id: d._id,
  channel: d.channel,
  kind: d.kind,
  content: d.content,
  dedupeKey: d.dedupeKey,
  createdAt: d.createdAt,
  editedAt: d.editedAt ?? null,
});

/** The chat message showing a case, one per case. */
/** `_id` is the case id. */
export type CaseMessageDoc = Omit<CaseMessageRecord, 'caseId'> & { _id: string };
export const toCaseMessage = (d: CaseMessageDoc): CaseMessageRecord => ({
  caseId: d._id,
  channel: d.channel,
  messageId: d.messageId,
  updatedAt: d.updatedAt,
});

export interface DeliveryDoc {
  /** The delivery key (the notification job id). */
  _id: string;
  externalId: string | null;
  deliveredAt: number;
}
export const toDeliveryDoc = (r: DeliveryRecord): DeliveryDoc => ({ _id: r.key, externalId: r.externalId, deliveredAt: r.deliveredAt });
export const toDelivery = (d: DeliveryDoc): DeliveryRecord => ({ key: d._id, externalId: d.externalId ?? null, deliveredAt: d.deliveredAt });

export interface CounterDoc {
  _id: string;
  value: number;
}

/** One SLA breach; `_id` is `<case id>:<opening id>`, so each opening breaches once. */
export interface SlaBreachDoc {
  _id: string;
  caseId: string;
  userId: string;
  openingId: string;
  category: string;
  at: number;
}

/** A reporter's decided cases; unique on {platform, reporterId}. Never below zero (triage.ts). */
export interface ReporterStatsDoc {
  platform: string;
  reporterId: string;
  approved: number;
  dismissed: number;
}

/** A report's outcome for its reporter (reporter-outcomes.ts); `_id` is the report id. */
export interface ReportOutcomeDoc {
  _id: string;
  platform: string;
  reporterId: string;
  caseId: string;
  actioned: boolean;
  reopened: boolean;
  at: number;
  /** From the `report_outcomes` counter, taken last in the decision's transaction. */
  seq: number;
}

/**
 * A decision's settlement still under way: the outcome and credibility change its case's reports
 * are owed, and how far the pages have gone (settlements.ts). Deleted when the last page is done.
 */
export interface SettlementDoc {
  /** The decision's id (a case's, or an appeal's that overturned its approval). */
  _id: string;
  caseId: string;
  /** Each report's new outcome; null when it keeps its own (an appeal's overturn). */
  outcome: { actioned: boolean; reopened: boolean } | null;
  /** The reporters' credibility change: the decided state counted, +1 for a decision, -1 for its undo or overturn. */
  count: { state: 'approved' | 'dismissed'; step: 1 | -1 } | null;
  at: number;
  /** The last report settled, in the order of reports_by_case_reporter; null before the first page. */
  after: { platform: string; reporterId: string; id: string } | null;
}

/**
 * A data migration (migrations.ts); `_id` is its name. `doneAt` once it has run; until then, a
 * paged one's progress: the key its next page starts after, and the items its pages covered.
 */
export interface MigrationDoc {
  _id: string;
  doneAt?: number;
  cursor?: string;
  count?: number;
}

/**
 * A sanction; `_id` is its id (the approval's decision id). Mapped to its record in sanctions.ts.
 * Documents of earlier versions lack the enforcement fields: they are login-blocking bans from their
 * case. `idempotencyKey` is absent (not null) when there is none, for the unique index.
 */
export type SanctionDoc = Omit<SanctionRecord, 'id' | 'blocksLogin' | 'category' | 'source' | 'idempotencyKey' | 'effectiveAt' | 'ladder' | 'evidence' | 'caseId' | 'statement' | 'boundModeratorId'> &
  Partial<Pick<SanctionRecord, 'blocksLogin' | 'category' | 'source' | 'effectiveAt' | 'ladder' | 'evidence' | 'statement' | 'boundModeratorId'>> & {
    _id: string;
    caseId?: string | null;
    idempotencyKey?: string;
  };

/** A feed event; `_id` is its seq. */
export type SanctionEventDoc = Omit<SanctionEvent, 'seq' | 'kind' | 'caseId' | 'statement'> & { _id: number; kind?: string; caseId?: string | null };

export type EffectDoc = Omit<EffectRecord, 'id'> & {
  _id: string;
  /**
   * Its index among the effects its source recorded: a source's effects share createdAt and their
   * ids are the caller's (`…:10-x` sorts before `…:2-x`), so this keeps them in recording order.
   * Absent on effects recorded by earlier versions.
   */
  ordinal?: number;
};

/** One evidence item; `_id` is `<reportId>/<index>`, so a report's item is stored once. */
export type EvidenceDoc = EvidenceItemRecord & { _id: string };
/** One audit entry; `_id` is the driver's ObjectId (it breaks ties between entries of one time). */
export type EvidenceAuditDoc = EvidenceAuditEntry & { _id?: ObjectId };

/** An appeal; `_id` is its id. At most one per sanction (unique index appeals_by_sanction). */
export type AppealDoc = Omit<AppealRecord, 'id'> & { _id: string };
export const toAppeal = (d: AppealDoc): AppealRecord => ({
  id: d._id,
  sanctionId: d.sanctionId,
  userId: d.userId,
  caseId: d.caseId ?? null,
  category: d.category ?? null,
  sanctionModeratorId: d.sanctionModeratorId,
  automated: d.automated,
  statement: d.statement,
  state: d.state,
  claimedBy: d.claimedBy ?? null,
  version: d.version,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
  decidedAt: d.decidedAt ?? null,
  decidedBy: d.decidedBy ?? null,
  decisionReason: d.decisionReason ?? null,
  slaBreached: d.slaBreached ?? false,
});

/** One entry of an appeal's audit; `seq` is the appeal version it produced (1: the submission). */
export type AppealEventDoc = AppealEvent & { _id?: ObjectId; seq: number };
export const toAppealEvent = (d: AppealEventDoc): AppealEvent => ({
  appealId: d.appealId,
  decisionId: d.decisionId,
  action: d.action,
  moderatorId: d.moderatorId ?? null,
  fromState: d.fromState ?? null,
  toState: d.toState,
  reason: d.reason ?? null,
  at: d.at,
  result: d.result ?? null,
});
