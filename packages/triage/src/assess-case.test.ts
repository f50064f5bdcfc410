import { describe, expect, it } from 'vitest';
import { assessCase, credibilityOf, credibilityScore, DEFAULT_POLICY, type AssessedReport, type TriagePolicy } from './index.js';

const policy: TriagePolicy = {
  ...DEFAULT_POLICY,
  weights: { severity: 10, reporters: 4, agePerHour: 1 },
  brigade: { window: 'PT1M', minReporters: 3, suspectShare: 0.6, lowCredibility: 0.3 },
  rules: [{ id: 'cheat-escalate', category: 'cheating', minReporters: 2, minCredibility: 0.6, window: 'PT1H', action: { type: 'escalate', boost: 100 } }],
};
const r = (reporterId: string, receivedAt: number, category = 'cheating'): AssessedReport => ({
  reporterId,
  reporterPlatform: 'gameplatform',
  receivedAt,
  answers: [{ questionId: 'category', answer: category }],
});
/** Reporters with a history: approved/dismissed counts by id. */
const cred = (reports: AssessedReport[], history: Record<string, [number, number]> = {}) =>
  credibilityOf(
    reports.map((x) => ({ platform: x.reporterPlatform, id: x.reporterId })),
    Object.entries(history).map(([id, [approved, dismissed]]) => ({ platform: 'gameplatform', id, approved, dismissed })),
  );

describe('credibility', () => {
  it('starts neutral and follows (approved + 1) / (approved + dismissed + 2)', () => {
    expect(credibilityScore({ approved: 0, dismissed: 0 })).toBe(0.5);
    expect(credibilityScore({ approved: 3, dismissed: 1 })).toBeCloseTo(4 / 6);
    expect(credibilityScore({ approved: 0, dismissed: 8 })).toBeCloseTo(0.1);
  });
});

describe('assessCase', () => {
  it('priority = severity weight × highest severity + reporter weight × Σ credibility', () => {
    const reports = [r('a', 0, 'spam'), r('b', 1, 'cheating'), r('a', 2, 'spam')];
    const a = assessCase(policy, reports, cred(reports, { b: [3, 1] }), null, true);
    expect(a.categories).toEqual(['cheating', 'spam']);
    expect(a.priority).toBeCloseTo(10 * 5 + 4 * (0.5 + 4 / 6), 2);
    expect([a.reportCount, a.distinctReporters, a.flags]).toEqual([3, 2, []]);
  });

  it('an unknown or missing category answer is the default category', () => {
    const reports = [r('a', 0, 'whatever'), { ...r('b', 1), answers: [] }];
    expect(assessCase(policy, reports, cred(reports), null, true).categories).toEqual(['other']);
  });

  it('flags a burst of new reporters as a brigade, and their reports do not raise the priority', () => {
    const reports = [r('n1', 0, 'spam'), r('n2', 10_000, 'spam'), r('n3', 20_000, 'spam'), r('old', 30_000, 'spam')];
    const history = { old: [4, 0] as [number, number] };
    const a = assessCase(policy, reports, cred(reports, history), null, true);
    expect(a.flags).toEqual(['suspected_brigade']);
    expect(a.priority).toBeCloseTo(10 * 2 + 4 * (5 / 6), 2);
    // Spread over more than the window, the same reporters are no burst.
    const slow = reports.map((x, i) => ({ ...x, receivedAt: i * 120_000 }));
    expect(assessCase(policy, slow, cred(slow, history), null, true).flags).toEqual([]);
    // Established reporters are no brigade either.
    expect(assessCase(policy, reports, cred(reports, { n1: [2, 0], n2: [2, 0], n3: [2, 0], ...history }), null, true).flags).toEqual([]);
  });

  it('a flag sticks once set', () => {
    const reports = [r('a', 0)];
    expect(assessCase(policy, reports, cred(reports), { flags: ['suspected_brigade'], firedRules: [] }, true).flags).toEqual(['suspected_brigade']);
  });

  it('a rule fires once when enough credible reporters of its category report within its window', () => {
    const reports = [r('a', 0), r('b', 1_000), r('c', 2_000)];
    const history = { a: [2, 0] as [number, number], b: [2, 0] as [number, number] };
    const first = assessCase(policy, reports, cred(reports, history), null, true);
    expect(first.newlyFired.map((x) => x.id)).toEqual(['cheat-escalate']);
    expect(first.flags).toEqual(['escalated']);
    expect(first.priority).toBeCloseTo(50 + 4 * (0.75 + 0.75 + 0.5) + 100, 2);
    const again = assessCase(policy, reports, cred(reports, history), first, true);
    expect(again.newlyFired).toEqual([]);
    expect(again.priority).toBe(first.priority);
    // Neutral reporters (0.5) are not above 0.6; a decided case is not acted on; nor is a brigade.
    expect(assessCase(policy, reports, cred(reports), null, true).newlyFired).toEqual([]);
    expect(assessCase(policy, reports, cred(reports, history), null, false).newlyFired).toEqual([]);
    expect(assessCase(policy, reports, cred(reports, history), { flags: ['suspected_brigade'], firedRules: [] }, true).newlyFired).toEqual([]);
  });
});
