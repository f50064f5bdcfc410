import type { DecisionAction, Permission } from '@rm/contracts';

export type CaseState = 'open' | 'claimed' | 'approved' | 'dismissed';
export const OPEN_STATES: readonly CaseState[] = ['open', 'claimed'];
export const DECIDED_STATES: readonly CaseState[] = ['approved', 'dismissed'];

export interface ApiKeyRecord {
  key: string;
  name: string;
  /** SHA-256 of the secret, hex. The secret itself is never stored. */
  secretHash: string;
  permissions: Permission[];
  elevated: boolean;
  admin: boolean;
  /** Requests per minute, or null for no per-key limit. */
  rateLimit: number | null;
  createdAt: number;
  revokedAt: number | null;
  /** The moderator this key is bound to: it may act only as them. Absent for an unbound key. */
  moderatorId?: string;
}

/** A player in the game platform's user directory. */
export interface UserRecord {
  id: string;
  name: string;
  displayName: string;
  avatar: string | null;
}

export interface ModeratorRecord {
  id: string;
  username: string;
  createdAt: number;
}

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
}

export interface CaseEvent {
  caseId: string;
  decisionId: string;
  action: DecisionAction;
  moderatorId: string;
  fromState: CaseState;
  toState: CaseState;
  at: number;
  /** The answer given for this decision, kept so a redelivered job answers the same. */
  result: unknown;
}

export interface Transition {
  caseId: string;
  expectedVersion: number;
  expectedState: CaseState;
  next: { state: CaseState; claimedBy: string | null };
  /**
   * Approve bans the reported user (a sanction owned by the case, id = the decision id); undoing
   * an approval lifts that case's active sanction only.
   */
  ban?: 'set' | 'lift';
  /** With ban 'set': the sanction's reason and end (absent: permanent, no reason). */
  sanction?: { reason: string | null; expiresAt: number | null };
  /** Follow-ups the decision owes, recorded in the same transaction (the outbox) under its decision id. */
  effects?: NewEffect[];
  event: Omit<CaseEvent, 'caseId' | 'fromState' | 'toState'>;
}

export interface ChatMessageRecord {
  id: string;
  channel: string;
  kind: string;
  content: string;
  dedupeKey: string;
  createdAt: number;
  /** When the message was last edited, or null if never. */
  editedAt: number | null;
}

/** The chat message that shows a case in the report channel; later changes edit it. */
export interface CaseMessageRecord {
  caseId: string;
  channel: string;
  /** The chat platform's id of the message. */
  messageId: string;
  updatedAt: number;
}

/**
 * Proof that something was delivered to an outside system (an HTTP chat post or DM, a webhook),
 * keyed by a deterministic key (the notification job id), so a redelivered job delivers nothing twice.
 */
export interface DeliveryRecord {
  key: string;
  /** The receiving system's id for what was delivered (a chat message id), or null when it has none. */
  externalId: string | null;
  deliveredAt: number;
}

export interface Page {
  offset: number;
  limit: number;
}

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
export type SanctionState = 'active' | 'expired' | 'lifted';

/** A ban owned by the case whose approval set it; the player is banned while any is active. */
export interface SanctionRecord {
  /** The id of the approval (decision) that created it. */
  id: string;
  userId: string;
  caseId: string;
  kind: 'ban';
  reason: string | null;
  moderatorId: string;
  createdAt: number;
  /** null: permanent. */
  expiresAt: number | null;
  state: SanctionState;
  liftedAt: number | null;
  liftedBy: string | null;
  liftReason: string | null;
}

export type SanctionEventType = 'sanction.created' | 'sanction.lifted' | 'sanction.expired';

/** One change of a sanction, in the feed. `seq` strictly increases in the order the changes committed. */
export interface SanctionEvent {
  seq: number;
  type: SanctionEventType;
  sanctionId: string;
  userId: string;
  caseId: string;
  expiresAt: number | null;
  at: number;
}

/**
 * One follow-up owed by a committed change (decision, lift, expiry), written in the same
 * transaction as the change (the outbox) and carried out by the relay until marked done.
 */
export interface NewEffect {
  /** Deterministic (source id + kind), so recording it again changes nothing. */
  id: string;
  kind: string;
  payload: unknown;
}

export interface EffectRecord extends NewEffect {
  /** The decision id, or the id of the sanction change, that owes it. */
  sourceId: string;
  createdAt: number;
  doneAt: number | null;
}

/** A sanction ended by hand (CLI) or by its expiry, with the effects that change owes. */
export interface SanctionEnd {
  sanctionId: string;
  at: number;
  /** Lift only: who lifted it and why. */
  moderatorId?: string;
  reason?: string | null;
  /** The id the effects are recorded under. */
  sourceId: string;
  effects: NewEffect[];
}

/** How a reporter's reports ended: cases approved and dismissed with one of their reports in it. */
export interface ReporterStats extends ReporterRecord {
  approved: number;
  dismissed: number;
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

/**
 * A kept piece of evidence (docs/evidence.md): the outcome of capturing item `index` of a report's
 * evidence (a `url` asked to be kept with createEvidence, or an `s3Upload`). An item asked for
 * and not settled yet has no record: it is pending.
 */
export type EvidenceState = 'captured' | 'failed' | 'deleted';

export interface EvidenceItemRecord {
  reportId: string;
  index: number;
  caseId: string;
  state: EvidenceState;
  /** Why a capture failed (refused_address, too_large, timed_out, http_status...); null otherwise. */
  failure: string | null;
  /** A line for people: the HTTP status, the address refused... */
  detail: string | null;
  /** The kept copy's SHA-256 (hex), its size and content type: set once captured, kept after deletion. */
  sha256: string | null;
  size: number | null;
  contentType: string | null;
  capturedAt: number | null;
  /** When this outcome was recorded (capture, failure or deletion). */
  at: number;
}

export type EvidenceAction = 'evidence.captured' | 'evidence.failed' | 'evidence.deleted';

/** The evidence audit: one entry per recorded outcome, with the hash of what was kept or deleted. */
export interface EvidenceAuditEntry {
  reportId: string;
  index: number;
  action: EvidenceAction;
  sha256: string | null;
  detail: string | null;
  at: number;
}

export interface EvidenceKey {
  reportId: string;
  index: number;
}
