import type { DecisionAction, StatementOfReasons } from '@rm/contracts';
import type { NewEffect } from './effects.js';
import type { CaseRecord, CaseState } from './reports.js';
import type { LadderNote, SanctionSource } from './sanctions.js';

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

/** Decisions on cases (the compare-and-set, its audit, what it settles) and the chat messages that show cases. */
export interface DecisionStore {
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
   * idempotent. The MongoDB store settles it after the decision's commit, a bounded page per
   * transaction, before transitionCase returns; the SQLite store does it in the decision's
   * transaction and has nothing left to do. Run by the decision's `reports.settle` effect.
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
}
