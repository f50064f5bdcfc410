import type { CaseRecord, CaseState, EvidenceItemRecord, NewReport, Transition } from '../index.js';
import type { Store } from '../index.js';

/** A report for the contract suites: defaults for every field, `overrides` for what a test cares about. */
export function report(id: string, userId: string, receivedAt: number, overrides: Partial<NewReport> = {}): NewReport {
  return {
    id,
    userId,
    reporterId: 'reporter-1',
    reporterPlatform: 'gameplatform',
    reportType: null,
    answers: [{ questionId: 'q1', answer: 'they cheated' }],
    evidence: [{ url: `https://example.test/${id}.png`, type: 'image' }],
    receivedAt,
    user: { name: `name-${userId}`, displayName: `Display ${userId}`, avatar: null },
    ...overrides,
  };
}

/** A whole retention sweep's expired items, read `pageSize` items at a time from the store's cursor. */
export async function allExpiredEvidence(store: Pick<Store, 'expiredEvidence'>, decidedBefore: number, pageSize = 100): Promise<EvidenceItemRecord[]> {
  const items: EvidenceItemRecord[] = [];
  for (let cursor: string | null = null; ; ) {
    const page = await store.expiredEvidence(decidedBefore, cursor, pageSize);
    items.push(...page.items);
    if (page.cursor === null) return items;
    cursor = page.cursor;
  }
}

const ACTION: Record<CaseState, Transition['event']['action']> = { claimed: 'claim', approved: 'approve', dismissed: 'dismiss', open: 'undo' };

/** Transitions of a case by moderator mod-1, each with a new decision id `<prefix>-<n>`; `event` fixes the rest of the event. */
export function caseMover(prefix: string, event: Partial<Transition['event']> = {}) {
  let seq = 0;
  return (from: CaseRecord, state: CaseState, extra: Partial<Transition> = {}): Transition => ({
    caseId: from.id,
    expectedVersion: from.version,
    expectedState: from.state,
    next: { state, claimedBy: state === 'claimed' ? 'mod-1' : null },
    event: { decisionId: `${prefix}-${++seq}`, action: ACTION[state], moderatorId: 'mod-1', at: 5_000, result: null, ...event },
    ...extra,
  });
}
