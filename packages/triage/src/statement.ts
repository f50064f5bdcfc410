import type { AutomatedDecision, IllegalContentBody, StatementOfReasons } from '@rm/contracts';
import { kindsOf } from './ladder.js';
import { lookbackMs, type TriagePolicy } from './policy.js';

/** At most this many evidence items are cited (a case of thousands of reports cites its first ones). */
export const STATEMENT_MAX_EVIDENCE = 50;

/** What a statement of reasons is assembled from, when its sanction is created. */
export interface StatementInput {
  category: string;
  kind: string;
  from: number;
  until: number | null;
  reason: string | null;
  origin: 'reports' | 'own_initiative';
  reports: { count: number; firstAt: number; lastAt: number } | null;
  evidence: { url: string; sha256: string | null }[];
  automatedDetection: boolean;
  automatedDecision: AutomatedDecision;
  /** Set when the ground is illegal content rather than the terms. */
  illegalContent?: IllegalContentBody | undefined;
  issuedAt: number;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** What a player reads about appealing, with the other ways of redress the DSA (Article 17(3)(f)) asks to name. */
export function howToAppeal(appealUntil: number): string {
  return (
    `You can appeal this decision in the game until ${day(appealUntil)} (UTC); a person who took no part in it reviews your appeal. ` +
    'You may also refer it to a certified out-of-court dispute settlement body, or to a court.'
  );
}

/**
 * The statement of reasons of a sanction about to be created (DESIGN 19, DSA Article 17), from the
 * policy as it is now: it is stored with the sanction and never assembled again. A category the
 * policy no longer has (a case triaged under an earlier policy) takes the default category's
 * clause, so no statement lacks a ground.
 */
export function assembleStatement(policy: TriagePolicy, input: StatementInput): StatementOfReasons {
  const category = policy.categories[input.category] ?? policy.categories[policy.category.default]!;
  const publicDescription = category.publicDescription ?? category.clause;
  const kind = kindsOf(policy)[input.kind];
  const explanation = input.illegalContent?.explanation ?? input.reason ?? publicDescription;
  const appealUntil = input.from + (lookbackMs(policy.appeals.window) ?? 0);
  const evidence: StatementOfReasons['facts']['evidence'] = [];
  const seen = new Set<string>();
  for (const e of input.evidence) {
    if (evidence.length === STATEMENT_MAX_EVIDENCE) break;
    if (seen.has(e.url)) continue;
    seen.add(e.url);
    evidence.push({ url: e.url, sha256: e.sha256 });
  }
  return {
    ground: {
      type: input.illegalContent ? 'illegal' : 'terms',
      clause: category.clause,
      law: input.illegalContent?.law ?? null,
      explanation,
    },
    facts: {
      origin: input.origin,
      category: input.category,
      publicDescription,
      transparencyCategory: category.transparencyCategory,
      reports: input.reports,
      evidence,
      reason: input.reason,
    },
    restriction: {
      kind: input.kind,
      label: kind?.label ?? input.kind,
      blocksLogin: kind?.blocksLogin ?? false,
      from: input.from,
      until: input.until,
    },
    automation: { automatedDetection: input.automatedDetection, automatedDecision: input.automatedDecision },
    redress: { appealUntil, howToAppeal: howToAppeal(appealUntil) },
    issuedAt: input.issuedAt,
  };
}
