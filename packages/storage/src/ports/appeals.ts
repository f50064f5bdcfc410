import type { NewEffect } from './effects.js';

/**
 * An appeal of a sanction (docs/appeals.md): `open` until a moderator claims it, `claimed` while one
 * holds it, then `upheld` (the sanction stays) or `overturned` (the sanction is lifted). A sanction
 * has at most one appeal: a repeat answers the first.
 */
export type AppealState = 'open' | 'claimed' | 'upheld' | 'overturned';
export const APPEAL_OPEN_STATES: readonly AppealState[] = ['open', 'claimed'];
export const APPEAL_DECIDED_STATES: readonly AppealState[] = ['upheld', 'overturned'];

/** What happened to an appeal: its audit, oldest first. */
export type AppealAction = 'submit' | 'claim' | 'unclaim' | 'uphold' | 'overturn';

export interface AppealRecord {
  id: string;
  sanctionId: string;
  userId: string;
  /** The case whose approval created the sanction; null for a trusted system's sanction. */
  caseId: string | null;
  /** The sanction's category (null on sanctions of versions before kinds). */
  category: string | null;
  /** Who decided the sanction (its moderatorId): they may not decide its appeal. */
  sanctionModeratorId: string;
  /** True when the sanction was decided automatically (a rule, or the system moderator). */
  automated: boolean;
  /** The player's statement. */
  statement: string;
  state: AppealState;
  claimedBy: string | null;
  /** Incremented by every transition: the compare-and-set token. */
  version: number;
  createdAt: number;
  updatedAt: number;
  decidedAt: number | null;
  decidedBy: string | null;
  /** The reviewer's reason, sent to the game with the outcome. */
  decisionReason: string | null;
  /** True once the appeal waited undecided past the policy's appeals.sla (sticky). */
  slaBreached: boolean;
}

export interface AppealEvent {
  appealId: string;
  decisionId: string;
  action: AppealAction;
  /** null for the submission (the game server's key is not a moderator). */
  moderatorId: string | null;
  fromState: AppealState | null;
  toState: AppealState;
  reason: string | null;
  at: number;
  /** The answer given for this decision, kept so a redelivered job answers the same. */
  result: unknown;
}

/** An appeal a game server submits, with the effects it owes (its SLA deadline), stored together. */
export interface NewAppeal extends Omit<AppealRecord, 'state' | 'claimedBy' | 'version' | 'createdAt' | 'updatedAt' | 'decidedAt' | 'decidedBy' | 'decisionReason' | 'slaBreached'> {
  at: number;
  effects: NewEffect[];
}

export interface AppealTransition {
  appealId: string;
  expectedVersion: number;
  expectedState: AppealState;
  next: { state: AppealState; claimedBy: string | null };
  /**
   * Into upheld or overturned: the outcome and the reviewer's reason, recorded on the appeal and as
   * the `appeal.resolved` feed event. An overturn also lifts the sanction (its `sanction.lifted`
   * feed event with cause `appeal`) and takes back the approval its case counted for its reporters.
   */
  resolution?: { outcome: 'upheld' | 'overturned'; reason: string };
  /** Follow-ups owed, recorded in the same transaction (the outbox) under the decision id. */
  effects?: NewEffect[];
  event: { decisionId: string; action: AppealAction; moderatorId: string; reason: string | null; at: number; result: unknown };
}

/** What GET /v1/appeals asks for: oldest first, after a (createdAt, id) cursor. */
export interface AppealQuery {
  states: AppealState[];
  category?: string | undefined;
  userId?: string | undefined;
  caseId?: string | undefined;
  sanctionId?: string | undefined;
  after?: { createdAt: number; id: string } | undefined;
  limit: number;
}

/** Appeals of sanctions (docs/appeals.md). */
export interface AppealStore {
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
}
