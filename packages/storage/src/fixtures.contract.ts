import type { NewReport } from './records.js';

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
