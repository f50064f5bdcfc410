import type { AutomatedDecision, IllegalContentBody, StatementOfReasons } from '@rm/contracts';
import { kindsOf } from './ladder.js';
import { DEFAULT_LANGUAGE, lookbackMs, type CategoryPolicy, type TriagePolicy } from './policy.js';

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

/** The text of `texts` in `language`: that tag, else one of its language (`de` for `de-AT`, `de-AT` for `de`), else none. */
function inLanguage(texts: Record<string, string>, language: string): string | undefined {
  const primary = language.split('-')[0]!.toLowerCase();
  return texts[language] ?? Object.entries(texts).find(([tag]) => tag.split('-')[0] === primary)?.[1];
}

/**
 * What a player reads about a category, in `language` when the policy gives it, else in English
 * (the default language), else the category's clause.
 */
export function publicDescriptionOf(category: Pick<CategoryPolicy, 'clause' | 'publicDescription'>, language: string = DEFAULT_LANGUAGE): string {
  const given = category.publicDescription;
  if (given === undefined) return category.clause;
  if (typeof given === 'string') return given;
  return inLanguage(given, language) ?? given[DEFAULT_LANGUAGE] ?? category.clause;
}

/**
 * A statement's public description, as a player reading `language` sees it: the policy's text in
 * that language when the policy's English text of the category is still the one the statement
 * stored (so it translates what was stated, never a later description); else the stored text.
 */
export function statedDescriptionIn(policy: TriagePolicy, facts: Pick<StatementOfReasons['facts'], 'category' | 'publicDescription'>, language: string): string {
  const category = policy.categories[facts.category];
  if (!category || publicDescriptionOf(category) !== facts.publicDescription) return facts.publicDescription;
  return publicDescriptionOf(category, language);
}

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
  const publicDescription = publicDescriptionOf(category);
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
