import type { AutomatedDecision } from '@rm/contracts';
import type { SanctionRecord } from './sanctions.js';

/** A period of the transparency figures and export: from (inclusive) to (exclusive), ms since the epoch. */
export interface TransparencyPeriod {
  from: number;
  to: number;
}

/** What GET /v1/transparency asks the store for: the period, and how a report's category is read. */
export interface TransparencyQuery extends TransparencyPeriod {
  /**
   * A report's category: its answer to `categoryQuestionId`, trimmed and lower-cased, when that is
   * one of `categories`; else `defaultCategory` (as the triage policy reads it).
   */
  categoryQuestionId: string;
  categories: string[];
  defaultCategory: string;
}

/** The period's figures, each aggregated in the store (docs/transparency.md). */
export interface TransparencyFigures {
  /** Reports received in the period, by category and by the reporter's platform. */
  reports: { category: string; platform: string; count: number }[];
  /** Decisions taken in the period: approvals, dismissals, and undos of either. */
  decisions: { approved: number; dismissed: number; undone: number };
  /**
   * Sanctions that took effect in the period (a ban wave at its effectiveAt; a wave sanction lifted
   * before then never did), by kind, ground and automation; ground and automation are null on
   * sanctions of versions before statements of reasons.
   */
  sanctions: {
    kind: string;
    ground: 'terms' | 'illegal' | null;
    automatedDetection: boolean | null;
    automatedDecision: AutomatedDecision | null;
    count: number;
  }[];
  /** Median time from a case's first report to its approval or dismissal, over the period's decisions; null without any. */
  medianTimeToDecisionMs: number | null;
  /**
   * Appeals filed in the period, and those decided in it each way, with the median time from
   * filing to decision over the latter (null without any).
   */
  appeals: { received: number; upheld: number; overturned: number; medianTimeToDecisionMs: number | null };
}

/** A page of the sanctions with a statement of reasons whose restriction started in the period. */
export interface StatementPage {
  sanctions: SanctionRecord[];
  /** Pass back for the next page; null at the end. */
  cursor: string | null;
}

/** Transparency reports (docs/transparency.md): aggregated in the store, never by loading every record. */
export interface TransparencyStore {
  /** The period's figures: reports by category and platform, decisions, sanctions by kind, ground and automation, median time to decision. */
  transparencyFigures(query: TransparencyQuery): Promise<TransparencyFigures>;
  /**
   * Sanctions with a statement of reasons whose restriction took effect in the period (a
   * scheduled one not yet, and one lifted before its wave started, are left out), ordered by that
   * time then id, a page at a time: pass the returned cursor (null to start) until it is null.
   */
  statementsIn(period: TransparencyPeriod, cursor: string | null, limit: number): Promise<StatementPage>;
}
