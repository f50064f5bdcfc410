import { OPEN_STATES, type CaseTriageRecord, type ReportRecord, type ReporterStore, type ReportStore, type TriageStore } from '@rm/storage';
import { assessCase, type Assessment } from './assess-case.js';
import { credibilityOf, type Credibility } from './credibility.js';
import type { Rule, TriagePolicy } from './policy.js';

/** A case's reports and their reporters' credibility, as the case API and the triage read them. */
export async function caseReportsWithCredibility(store: ReportStore & ReporterStore, caseId: string): Promise<{ reports: ReportRecord[]; credibility: Map<string, Credibility> }> {
  const reports = await store.caseReports(caseId);
  const reporters = [...new Map(reports.map((r) => [`${r.reporterPlatform}\u0000${r.reporterId}`, { platform: r.reporterPlatform, id: r.reporterId }])).values()];
  return { reports, credibility: credibilityOf(reporters, await store.reporterStats(reporters)) };
}

export interface TriageDeps {
  store: ReportStore & TriageStore & ReporterStore;
  policy: TriagePolicy;
  /** Carries out a rule that fired for the first time on the case, before the triage saying so is stored. */
  act: (rule: Rule, caseId: string, triage: CaseTriageRecord) => Promise<void>;
  now?: () => number;
}

/**
 * Recomputes and stores a case's triage (priority, categories, flags, fired rules), and carries
 * out the rules that fire for the first time. Run when a report joins and after every decision,
 * one case at a time (the caller holds the case's lock). An action runs before the triage that
 * records it is stored, so a crash between them repeats the action, which is idempotent, rather
 * than losing it. Null when there is no such case; an unchanged triage is not written again.
 */
export async function refreshTriage(deps: TriageDeps, caseId: string): Promise<CaseTriageRecord | null> {
  const [c, before] = await Promise.all([deps.store.getCase(caseId), deps.store.getCaseTriage(caseId)]);
  if (!c) return null;
  const { reports, credibility } = await caseReportsWithCredibility(deps.store, caseId);
  const { newlyFired, ...assessed } = assessCase(deps.policy, reports, credibility, before, OPEN_STATES.includes(c.state));
  const triage: CaseTriageRecord = { caseId, ...assessed, updatedAt: (deps.now ?? Date.now)() };
  for (const rule of newlyFired) await deps.act(rule, caseId, triage);
  // Most decisions (a claim, an unclaim) change nothing the triage reads: no write then.
  if (before && sameAssessment(before, assessed)) return before;
  await deps.store.setCaseTriage(triage);
  return triage;
}

function sameAssessment(before: CaseTriageRecord, now: Omit<Assessment, 'newlyFired'>): boolean {
  return (Object.keys(now) as (keyof typeof now)[]).every((k) => JSON.stringify(before[k]) === JSON.stringify(now[k]));
}
