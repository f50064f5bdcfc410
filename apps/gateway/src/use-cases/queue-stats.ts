import { parseIsoDuration, type StatsQuery, type StatsResponse } from '@rm/contracts';
import { allOpenCases, triageOfCases, type AppealStore, type TriageStore } from '@rm/storage';
import { caseCategory, type TriagePolicy } from '@rm/triage';
import { statsFigures } from './stats-figures.js';

/** GET /v1/stats: the queue now, and what happened in the window (an ISO 8601 duration back from now). */
export async function queueStats(store: TriageStore & AppealStore, policy: TriagePolicy, query: StatsQuery, now = Date.now()): Promise<StatsResponse> {
  // The query schema accepted only positive durations.
  const since = now - parseIsoDuration(query.window)!;
  const [openCases, reportsReceived, timelines, breaches, appeals] = await Promise.all([
    allOpenCases(store),
    store.countReportsSince(since),
    store.caseTimelinesSince(since),
    store.slaBreachesSince(since),
    store.appealsSince(since),
  ]);
  // Each case's category (its most severe, by the triage policy): the triages read a page of cases per store call.
  const caseIds = [...new Set([...openCases.map((c) => c.caseId), ...timelines.map((t) => t.caseId)])];
  const triages = await triageOfCases(store, caseIds);
  const categories = new Map(caseIds.map((id) => [id, caseCategory(policy, triages.get(id) ?? null)]));
  const categoryOf = (c: { caseId: string }) => categories.get(c.caseId) ?? policy.category.default;
  return statsFigures({ window: query.window, since, until: now, openCases, reportsReceived, timelines, breaches, appeals, categoryOf });
}
