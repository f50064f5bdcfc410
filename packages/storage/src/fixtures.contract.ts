import type { EvidenceItemRecord, NewReport } from './records.js';
import type { Store } from './store.js';

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
