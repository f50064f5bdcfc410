import type { CaseTriageRecord, ReportRecord } from '@rm/storage';
import { reporterKey, type Credibility } from './credibility.js';
import { durationMs } from './duration.js';
import type { Rule, TriagePolicy } from './policy.js';

export const SUSPECTED_BRIGADE = 'suspected_brigade';
export const ESCALATED = 'escalated';

/** What a report says about its category: the answer to the policy's question, when it names a category. */
export function categoryOf(policy: TriagePolicy, report: Pick<ReportRecord, 'answers'>): string {
  const answer = report.answers.find((a) => a.questionId === policy.category.questionId)?.answer.trim().toLowerCase();
  return answer !== undefined && Object.hasOwn(policy.categories, answer) ? answer : policy.category.default;
}

/** The reports an assessment reads: a case's, oldest first, with what the policy needs of each. */
export type AssessedReport = Pick<ReportRecord, 'reporterId' | 'reporterPlatform' | 'receivedAt' | 'answers'>;

/** New (nothing decided yet) or below the brigade's lowCredibility. */
function isSuspect(policy: TriagePolicy, c: Credibility | undefined): boolean {
  return !c || c.approved + c.dismissed === 0 || c.credibility < policy.brigade.lowCredibility;
}

const keyOf = (r: AssessedReport) => reporterKey({ platform: r.reporterPlatform, id: r.reporterId });
const within = (reports: AssessedReport[], windowMs: number) => {
  const last = reports.at(-1)?.receivedAt ?? 0;
  return reports.filter((r) => r.receivedAt >= last - windowMs);
};

/**
 * A burst: at least minReporters distinct reporters within the window ending at the latest report,
 * of whom at least suspectShare are new or of low credibility.
 */
export function isBrigade(policy: TriagePolicy, reports: AssessedReport[], credibility: Map<string, Credibility>): boolean {
  const burst = new Set(within(reports, durationMs(policy.brigade.window)).map(keyOf));
  if (burst.size < policy.brigade.minReporters) return false;
  const suspects = [...burst].filter((k) => isSuspect(policy, credibility.get(k))).length;
  return suspects / burst.size >= policy.brigade.suspectShare;
}

/**
 * Rules that match now: at least minReporters distinct reporters above minCredibility reported the
 * rule's category within its window (ending at the latest report).
 */
export function matchingRules(policy: TriagePolicy, reports: AssessedReport[], credibility: Map<string, Credibility>): Rule[] {
  return policy.rules.filter((rule) => {
    const counted = new Set(
      within(reports, durationMs(rule.window))
        .filter((r) => categoryOf(policy, r) === rule.category && (credibility.get(keyOf(r))?.credibility ?? 0.5) > rule.minCredibility)
        .map(keyOf),
    );
    return counted.size >= rule.minReporters;
  });
}

/** A case's triage as stored (priority without the age term, see ageTerm), and the rules that fire now for the first time. */
export type Assessment = Omit<CaseTriageRecord, 'caseId' | 'updatedAt'> & { newlyFired: Rule[] };

/**
 * Triage of one case from its reports (oldest first), its reporters' credibility and what was
 * assessed before (flags and fired rules stick: a brigade stays flagged, a rule acts once).
 *   priority = weights.severity × the highest severity among its categories
 *            + weights.reporters × Σ credibility of its counted reporters (all of them; only the
 *              established ones, neither new nor low, once it is a suspected brigade)
 *            + the boosts of the escalate rules that fired.
 * Rules act only on open or claimed cases that are not a suspected brigade.
 */
export function assessCase(
  policy: TriagePolicy,
  reports: AssessedReport[],
  credibility: Map<string, Credibility>,
  before: { flags: string[]; firedRules: string[] } | null,
  open: boolean,
): Assessment {
  const categories = [...new Set(reports.map((r) => categoryOf(policy, r)))].sort();
  const severity = Math.max(0, ...categories.map((c) => policy.categories[c]?.severity ?? 0));
  const flags = new Set(before?.flags ?? []);
  if (!flags.has(SUSPECTED_BRIGADE) && isBrigade(policy, reports, credibility)) flags.add(SUSPECTED_BRIGADE);
  const brigade = flags.has(SUSPECTED_BRIGADE);

  const reporters = [...new Set(reports.map(keyOf))];
  const counted = brigade ? reporters.filter((k) => !isSuspect(policy, credibility.get(k))) : reporters;
  const reporterTerm = counted.reduce((sum, k) => sum + (credibility.get(k)?.credibility ?? 0.5), 0);

  const fired = new Set(before?.firedRules ?? []);
  const newlyFired = open && !brigade ? matchingRules(policy, reports, credibility).filter((r) => !fired.has(r.id)) : [];
  for (const rule of newlyFired) fired.add(rule.id);
  const escalations = policy.rules.filter((r) => fired.has(r.id) && r.action.type === 'escalate');
  const boosts = escalations.reduce((sum, r) => sum + (r.action.type === 'escalate' ? r.action.boost : 0), 0);
  if (escalations.length > 0) flags.add(ESCALATED);

  return {
    priority: round(policy.weights.severity * severity + policy.weights.reporters * reporterTerm + boosts),
    reportCount: reports.length,
    distinctReporters: reporters.length,
    categories,
    flags: [...flags].sort(),
    firedRules: [...fired].sort(),
    newlyFired,
    lastReportAt: reports.at(-1)?.receivedAt ?? 0,
  };
}

/** The age term of an open case's priority: weights.agePerHour × hours since it opened. */
export function ageTerm(policy: TriagePolicy, openedAt: number, now: number): number {
  return (policy.weights.agePerHour * Math.max(0, now - openedAt)) / 3_600_000;
}

export const round = (n: number): number => Math.round(n * 100) / 100;
