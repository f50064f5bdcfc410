import type { DecisionAction, Permission, StatementOfReasons } from '@rm/contracts';

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
  /**
   * True once the case waited unclaimed past its SLA at any of its openings (recordSlaBreach):
   * sticky, shown and filtered on as the flag SLA_BREACHED_FLAG beside the triage's flags.
   */
  slaBreached: boolean;
}

/** The flag of a case escalated for waiting past its SLA, as the case API shows and filters it. */
export const SLA_BREACHED_FLAG = 'sla_breached';

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
  /**
   * With ban 'set': the sanction's reason and end (absent: permanent, no reason, a login-blocking
   * `ban` from the case). `kind`, `blocksLogin` (snapshotted from the policy), `category`, `source`
   * and the `ladder` note are what the approval decided; absent, an approval is a `ban` as before.
   */
  sanction?: {
    reason: string | null;
    expiresAt: number | null;
    kind?: string;
    blocksLogin?: boolean;
    category?: string | null;
    source?: SanctionSource;
    ladder?: LadderNote | null;
    /** The statement of reasons, assembled with the decision (absent: null, as on earlier versions). */
    statement?: StatementOfReasons | null;
  };
  /** Follow-ups the decision owes, recorded in the same transaction (the outbox) under its decision id. */
  effects?: NewEffect[];
  /** The case's chat message from this decision on (an undo's re-post), set in the same transaction. */
  caseMessage?: CaseMessageRecord;
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
/**
 * `scheduled`: part of a ban wave not effective yet (nothing enforced, nothing in the feed until
 * `effectiveAt`); `active` until it expires or is lifted.
 */
export type SanctionState = 'scheduled' | 'active' | 'expired' | 'lifted';

/**
 * Where a sanction came from: `case` (a moderator's approval; id: the case), `rule` (an automatic
 * triage rule; id: the rule), or a trusted system through the sanctions API (type and id as it
 * named itself, e.g. `anticheat` / `vac-detector-3`).
 */
export interface SanctionSource {
  type: string;
  id: string;
}

export interface SanctionEvidence {
  url: string;
  type: string;
}

/** What the penalty ladder said when the sanction was decided (the audit of an override). */
export interface LadderNote {
  /** The player's earlier offences counted in the category. */
  offences: number;
  /** The step the ladder proposed; durationMs null: permanent. */
  proposed: { kind: string; durationMs: number | null };
  /** True when the moderator (or rule) named a kind or duration other than the proposal. */
  overridden: boolean;
}

/** A restriction of a player; they are banned while one that blocks login is active. */
export interface SanctionRecord {
  /** The id of the approval (decision) that created it, or a fresh id for the sanctions API. */
  id: string;
  userId: string;
  /** The case whose approval created it; null for a trusted system's sanction. */
  caseId: string | null;
  /** A kind of the policy (`ban`, `chat`, `warning`...). */
  kind: string;
  /** Snapshotted from the policy at creation: a later policy edit never changes a stored sanction. */
  blocksLogin: boolean;
  /** The case's or the trusted system's category; null on sanctions of earlier versions. */
  category: string | null;
  source: SanctionSource;
  /** The trusted system's key, scoped to its creator (moderatorId): the same pair is the same sanction. null otherwise. */
  idempotencyKey: string | null;
  /** For a scheduled ban wave: when it takes effect. null when it took effect at creation. */
  effectiveAt: number | null;
  ladder: LadderNote | null;
  /** Evidence a trusted system sent with it (empty for approvals: their case holds the reports). */
  evidence: SanctionEvidence[];
  reason: string | null;
  /** Who decided it: a moderator, the system moderator (a rule), or a trusted system's API key. */
  moderatorId: string;
  /** A trusted system's sanction created with a key bound to a moderator: that moderator (they may not decide its appeal). null otherwise. */
  boundModeratorId: string | null;
  createdAt: number;
  /** null: permanent. */
  expiresAt: number | null;
  state: SanctionState;
  liftedAt: number | null;
  liftedBy: string | null;
  liftReason: string | null;
  /** The statement of reasons, stored unchanged from creation; null on sanctions of earlier versions. */
  statement: StatementOfReasons | null;
}

/**
 * What enforcement needs of a player's sanctions (the ladder, the guard's Redis view, an undo's
 * lift), without the statement, evidence and audit: a player with a long history is read on every
 * decision about them.
 */
export type SanctionSummary = Pick<SanctionRecord, 'id' | 'caseId' | 'kind' | 'blocksLogin' | 'category' | 'state' | 'createdAt' | 'effectiveAt' | 'expiresAt'>;

/** Which of a player's sanctions to summarise: those in one of the states, narrowed by category or case when given. */
export interface SanctionFilter {
  states: readonly SanctionState[];
  category?: string;
  caseId?: string;
}

/**
 * How many of a player's sanctions are in each state, counted by the store without reading them:
 * their version and ban flag (the guard's Redis view, the ban API's cache) follow from it.
 */
export interface SanctionTally {
  active: number;
  /** Expired or lifted. */
  ended: number;
  /** Active and of a login-blocking kind. */
  banning: number;
}

/** A sanction a trusted system asks for (POST /v1/sanctions, one item of a batch). */
export interface NewSanction {
  /** Used only when the idempotency key is new. */
  id: string;
  userId: string;
  kind: string;
  blocksLogin: boolean;
  category: string;
  source: SanctionSource;
  idempotencyKey: string;
  evidence: SanctionEvidence[];
  reason: string | null;
  /** The caller (its API key), recorded as who created it; its idempotency keys are its own. */
  moderatorId: string;
  /** The moderator the caller's key is bound to, if it is. */
  boundModeratorId?: string | undefined;
  /** null: permanent; otherwise from effectiveAt (or creation). */
  expiresAt: number | null;
  statement: StatementOfReasons;
  /**
   * Effects owed when this item is created effective now (recorded only if its key is new, and
   * not for a scheduled batch: its effects come with activateSanctions).
   */
  effects: NewEffect[];
}

/** A batch of sanctions from a trusted system, stored in one transaction. */
export interface SanctionBatch {
  items: NewSanction[];
  at: number;
  /** A ban wave: stored `scheduled`, activated at this time (activateSanctions). */
  effectiveAt: number | null;
  /** The id the items' effects are recorded under. */
  sourceId: string;
}

/** One item's outcome: the sanction with that key (of that creator), and whether this call created it. */
export interface StoredSanction {
  sanction: SanctionRecord;
  created: boolean;
}

/** Scheduled sanctions that take effect now, with what that owes, in one transaction. */
export interface SanctionActivation {
  /** Each sanction with the effects it owes once active (recorded only if this call activates it). */
  items: { sanctionId: string; effects: NewEffect[] }[];
  at: number;
  /** The id the effects are recorded under. */
  sourceId: string;
}

/** `appeal.resolved`: an appeal of the sanction was decided (upheld or overturned), in the same feed. */
export type SanctionEventType = 'sanction.created' | 'sanction.lifted' | 'sanction.expired' | 'appeal.resolved';

/** On an `appeal.resolved` event: which appeal, its outcome and the reviewer's reason. */
export interface AppealOutcome {
  id: string;
  outcome: 'upheld' | 'overturned';
  reason: string;
}

/** One change of a sanction, in the feed. `seq` strictly increases in the order the changes committed. */
export interface SanctionEvent {
  seq: number;
  type: SanctionEventType;
  sanctionId: string;
  userId: string;
  caseId: string | null;
  kind: string;
  expiresAt: number | null;
  at: number;
  /** On a `sanction.lifted` by an overturned appeal: `appeal`. Absent otherwise. */
  cause?: 'appeal';
  /** On an `appeal.resolved` event only. */
  appeal?: AppealOutcome;
  /** On `sanction.created`: the sanction's statement of reasons (null on sanctions of earlier versions); null on other events. */
  statement: StatementOfReasons | null;
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
  /**
   * An effect that waits: not carried out before this time (ms since the epoch), recorded as its
   * createdAt (never earlier than the change's own time, so it keeps its place after the others). A deadline or an expiry waits until shortly before it is due, so that the change
   * making it moot (a decision after the claim, a lift) usually comes first.
   */
  notBefore?: number | undefined;
}

export interface EffectRecord extends NewEffect {
  /** The decision id, or the id of the sanction change, that owes it. */
  sourceId: string;
  /** When it was recorded, or the time a waiting effect waits for (notBefore): the relay carries out none before it. */
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
  /** Lift only: `appeal` when an overturned appeal lifts it (shown on its feed event). */
  cause?: 'appeal';
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
