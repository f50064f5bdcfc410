import { parseIsoDuration, type StatsQuery, type StatsResponse } from '@rm/contracts';
import { categoryOf } from '@rm/runtime';
import type { Store } from '@rm/storage';
import { statsFigures } from './stats-figures.js';

/** GET /v1/stats: the queue now, and what happened in the window (an ISO 8601 duration back from now). */
export async function queueStats(store: Store, query: StatsQuery, now = Date.now()): Promise<StatsResponse> {
  // The query schema accepted only positive durations.
  const since = now - parseIsoDuration(query.window)!;
  const [openCases, reportsReceived, timelines, breaches] = await Promise.all([
    store.listOpenCases(),
    store.countReportsSince(since),
    store.caseTimelinesSince(since),
    store.slaBreachesSince(since),
  ]);
  return statsFigures({ window: query.window, since, until: now, openCases, reportsReceived, timelines, breaches, categoryOf });
}
