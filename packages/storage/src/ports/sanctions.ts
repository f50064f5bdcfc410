import type { StatementOfReasons } from '@rm/contracts';
import type { NewEffect } from './effects.js';

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

/** Sanctions, bans and the sanction feed (docs/sanctions.md). */
export interface SanctionStore {
  /** True while the player has an active sanction that blocks login. */
  isBanned(userId: string): Promise<boolean>;
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
}
