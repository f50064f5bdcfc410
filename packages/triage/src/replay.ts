import { DECIDED_STATES, type CaseEvent, type CaseState, type DecisionStore, type ReportRecord, type ReportStore } from '@rm/storage';
import { categoryOf, isBrigade, matchingRules, type AssessedReport } from './assess-case.js';
import { credibilityScore, reporterKey, type Credibility } from './credibility.js';
import { durationMs } from './duration.js';
import type { TriagePolicy } from './policy.js';

export interface RuleOutcome {
  ruleId: string;
  action: string;
  /** Cases the rule would have acted on. */
  actedOn: number;
  /** Of those, how moderators decided them in the end: approved, dismissed (would-be false positives), still open. */
  approved: number;
  dismissed: number;
  undecided: number;
  /** Approved cases with a report of the rule's category that the rule would not have acted on. */
  missed: number;
  actedOnCases: string[];
  missedCases: string[];
}

export interface ReplayResult {
  since: number | null;
  reports: number;
  cases: number;
  rules: RuleOutcome[];
}

export interface ReplayProgress {
  (phase: 'reading' | 'replaying', done: number): void;
}

const PAGE = 1_000;
const decided = (s: CaseState) => (DECIDED_STATES as readonly string[]).includes(s);

type Item = { at: number; order: number; report?: ReportRecord; event?: CaseEvent };

/**
 * Replays the stored reports in time order against a policy and tells, per rule, which cases it
 * would have acted on and how moderators decided those in the end. Reporter credibility is
 * replayed too, from the decisions as they were taken, so a rule sees what it would have seen then.
 * Reads only: the store is not written to. Reports before `since` still count towards their case
 * (and the decisions before it towards credibility), but rules act only on reports from `since` on.
 */
export async function replayRules(store: ReportStore & DecisionStore, policy: TriagePolicy, options: { since?: number; progress?: ReplayProgress } = {}): Promise<ReplayResult> {
  const since = options.since ?? Number.NEGATIVE_INFINITY;
  const progress = options.progress ?? (() => undefined);

  const byCase = new Map<string, ReportRecord[]>();
  let total = 0;
  for (let cursor: string | null = null, first = true; first || cursor !== null; first = false) {
    const page: { reports: ReportRecord[]; cursor: string | null } = await store.scanReports(cursor, PAGE);
    for (const r of page.reports) {
      const list = byCase.get(r.caseId) ?? [];
      list.push(r);
      byCase.set(r.caseId, list);
    }
    total += page.reports.length;
    cursor = page.cursor;
    progress('reading', total);
  }

  const items: Item[] = [];
  const finalState = new Map<string, CaseState>();
  let order = 0;
  for (const [caseId, reports] of byCase) {
    const [c, history] = await Promise.all([store.getCase(caseId), store.caseHistory(caseId)]);
    finalState.set(caseId, c?.state ?? 'open');
    for (const report of reports) items.push({ at: report.receivedAt, order: order++, report });
    for (const event of history) items.push({ at: event.at, order: order++, event });
  }
  // Time order; at the same instant a report before a decision (a report cannot join a decided case).
  items.sort((a, b) => a.at - b.at || Number(Boolean(a.event)) - Number(Boolean(b.event)) || a.order - b.order);

  const window = Math.max(durationMs(policy.brigade.window), ...policy.rules.map((r) => durationMs(r.window)));
  const stats = new Map<string, { platform: string; id: string; approved: number; dismissed: number }>();
  const seen = new Map<string, AssessedReport[]>();
  const open = new Map<string, boolean>();
  const brigade = new Set<string>();
  /** Per case, the reporters its standing decision counted, so an undo uncounts the same ones. */
  const counted = new Map<string, { keys: string[]; field: 'approved' | 'dismissed' }>();
  const fired = new Map<string, Set<string>>(policy.rules.map((r) => [r.id, new Set<string>()]));

  const statOf = (platform: string, id: string) => {
    const key = reporterKey({ platform, id });
    let s = stats.get(key);
    if (!s) stats.set(key, (s = { platform, id, approved: 0, dismissed: 0 }));
    return s;
  };

  let done = 0;
  for (const item of items) {
    if (item.event) {
      const e = item.event;
      if (decided(e.toState) && !decided(e.fromState)) {
        const field = e.toState === 'approved' ? 'approved' : 'dismissed';
        const keys = [...new Set((seen.get(e.caseId) ?? []).map((r) => reporterKey({ platform: r.reporterPlatform, id: r.reporterId })))];
        for (const k of keys) stats.get(k)![field]++;
        counted.set(e.caseId, { keys, field });
        open.set(e.caseId, false);
      } else if (decided(e.fromState) && !decided(e.toState)) {
        const was = counted.get(e.caseId);
        for (const k of was?.keys ?? []) stats.get(k)![was!.field]--;
        counted.delete(e.caseId);
        open.set(e.caseId, true);
      }
      continue;
    }
    const r = item.report!;
    statOf(r.reporterPlatform, r.reporterId);
    const reports = seen.get(r.caseId) ?? [];
    reports.push(r);
    seen.set(r.caseId, reports);
    if (!open.has(r.caseId)) open.set(r.caseId, true);
    progress('replaying', ++done);
    if (r.receivedAt < since || !open.get(r.caseId)) continue;

    // Only the reports within the longest window can matter to the brigade check and the rules.
    let start = reports.length;
    while (start > 0 && reports[start - 1]!.receivedAt >= r.receivedAt - window) start--;
    const recent = reports.slice(start);
    const credibility = new Map<string, Credibility>();
    for (const x of recent) {
      const s = stats.get(reporterKey({ platform: x.reporterPlatform, id: x.reporterId }))!;
      credibility.set(reporterKey(s), { ...s, credibility: credibilityScore(s) });
    }
    if (!brigade.has(r.caseId) && isBrigade(policy, recent, credibility)) brigade.add(r.caseId);
    if (brigade.has(r.caseId)) continue;
    for (const rule of matchingRules(policy, recent, credibility)) fired.get(rule.id)!.add(r.caseId);
  }

  const rules = policy.rules.map((rule): RuleOutcome => {
    const acted = [...fired.get(rule.id)!];
    const outcome = (s: CaseState | undefined) => acted.filter((id) => finalState.get(id) === s).length;
    const missedCases = [...byCase.entries()]
      .filter(([caseId, reports]) => finalState.get(caseId) === 'approved' && !fired.get(rule.id)!.has(caseId) && reports.some((x) => x.receivedAt >= since && categoryOf(policy, x) === rule.category))
      .map(([caseId]) => caseId);
    const approved = outcome('approved');
    const dismissed = outcome('dismissed');
    return {
      ruleId: rule.id,
      action: rule.action.type,
      actedOn: acted.length,
      approved,
      dismissed,
      undecided: acted.length - approved - dismissed,
      missed: missedCases.length,
      actedOnCases: acted.sort(),
      missedCases: missedCases.sort(),
    };
  });
  return { since: Number.isFinite(since) ? since : null, reports: total, cases: byCase.size, rules };
}
