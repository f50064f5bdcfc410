import type { CaseTriageRecord, OpenCaseSummary } from './ports/triage.js';
import type { Store } from './store.js';

/** Cases per openCases page when a caller wants them all. */
export const OPEN_CASES_PAGE = 1_000;

/**
 * Every open and claimed case, by case id, read a page at a time through the port's one
 * open-cases method (so no single read holds the whole queue).
 */
export async function allOpenCases(store: Pick<Store, 'openCases'>, pageSize = OPEN_CASES_PAGE): Promise<OpenCaseSummary[]> {
  const all: OpenCaseSummary[] = [];
  for (let after = ''; ; ) {
    const page = await store.openCases(after, pageSize);
    all.push(...page);
    if (page.length < pageSize) return all;
    after = page.at(-1)!.caseId;
  }
}

/** The triage of these cases by case id, read OPEN_CASES_PAGE cases per store call (one call, not one per case). */
export async function triageOfCases(store: Pick<Store, 'caseTriages'>, caseIds: string[], pageSize = OPEN_CASES_PAGE): Promise<Map<string, CaseTriageRecord>> {
  const found = new Map<string, CaseTriageRecord>();
  for (let i = 0; i < caseIds.length; i += pageSize) {
    for (const t of await store.caseTriages(caseIds.slice(i, i + pageSize))) found.set(t.caseId, t);
  }
  return found;
}
