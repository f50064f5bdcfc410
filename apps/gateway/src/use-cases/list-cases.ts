import { AppError, type CasesQuery, type CasesResponse } from '@rm/contracts';
import { OPEN_STATES, type AccountStore, type CaseState, type TriageStore } from '@rm/storage';
import type { UserDirectory } from '@rm/platforms';
import type { TriagePolicy } from '@rm/triage';
import { caseSummary, moderatorNames } from './case-views.js';
import { playerNames } from './player-names.js';

/**
 * The case queue: triaged cases, by default those waiting for a decision (open and claimed), most
 * urgent first. `count` is the total matching, not the page length.
 */
export async function listCases(store: TriageStore & AccountStore, directory: UserDirectory, policy: TriagePolicy, query: CasesQuery, now = Date.now()): Promise<CasesResponse> {
  // A category is the policy's (its query parameter is checked here, where the policy is known).
  if (query.category !== undefined && !Object.hasOwn(policy.categories, query.category)) {
    throw new AppError('BAD_REQUEST', `Invalid query parameter category: category must be one of ${Object.keys(policy.categories).join(', ')}`);
  }
  const states: CaseState[] = query.state ? [query.state] : [...OPEN_STATES];
  const { total, cases } = await store.listCases({
    states,
    category: query.category,
    flag: query.flag,
    sort: query.sort,
    agePerHour: policy.weights.agePerHour,
    now,
    page: { offset: (query.page - 1) * query.limit, limit: query.limit },
  });
  const [moderators, players] = await Promise.all([
    moderatorNames(store, cases.flatMap((x) => (x.case.claimedBy ? [x.case.claimedBy] : []))),
    playerNames(directory, cases.map((x) => x.case.userId)),
  ]);
  return { success: true, page: query.page, limit: query.limit, count: total, cases: cases.map((x) => caseSummary(policy, x.case, x.triage, moderators, players, now)) };
}
