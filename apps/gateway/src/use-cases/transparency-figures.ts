import { AppError, periodBound, type TransparencyQuery, type TransparencyResponse } from '@rm/contracts';
import type { TransparencyFigures, TransparencyStore } from '@rm/storage';
import type { TriagePolicy } from '@rm/triage';

/** Sums the groups' counts by the key `keyOf` gives, in the order each key first appears. */
function tally<T, K>(groups: T[], keyOf: (g: T) => K, count: (g: T) => number): { key: K; count: number }[] {
  const totals = new Map<string, { key: K; count: number }>();
  for (const g of groups) {
    const key = keyOf(g);
    const id = JSON.stringify(key);
    const t = totals.get(id) ?? { key, count: 0 };
    t.count += count(g);
    totals.set(id, t);
  }
  return [...totals.values()];
}

/**
 * GET /v1/transparency: the period's figures (DSA Articles 15 and 24), each aggregated in the
 * store; here only regrouped. Appeals are left null until the appeals feature reports them.
 */
export async function transparencyFigures(store: TransparencyStore, policy: TriagePolicy, query: TransparencyQuery): Promise<TransparencyResponse> {
  const from = periodBound(query.from, 'from');
  const to = periodBound(query.to, 'to');
  if (to <= from) throw new AppError('VALIDATION_FAILED', 'Invalid query parameter to: to must be after from');
  const f: TransparencyFigures = await store.transparencyFigures({
    from,
    to,
    categoryQuestionId: policy.category.questionId,
    categories: Object.keys(policy.categories),
    defaultCategory: policy.category.default,
  });
  const groups = f.sanctions;
  return {
    success: true,
    period: { from: new Date(from).toISOString(), to: new Date(to).toISOString() },
    reports: {
      total: f.reports.reduce((n, r) => n + r.count, 0),
      byCategoryAndSource: f.reports.map((r) => ({ category: r.category, source: r.platform, count: r.count })),
    },
    decisions: f.decisions,
    sanctions: {
      total: groups.reduce((n, g) => n + g.count, 0),
      byKind: tally(groups, (g) => g.kind, (g) => g.count).map((t) => ({ kind: t.key, count: t.count })),
      byGround: tally(groups, (g) => g.ground, (g) => g.count).map((t) => ({ ground: t.key, count: t.count })),
      byAutomation: tally(groups, (g) => [g.automatedDetection, g.automatedDecision] as const, (g) => g.count).map((t) => ({
        automatedDetection: t.key[0],
        automatedDecision: t.key[1],
        count: t.count,
      })),
      groups,
    },
    medianTimeToDecisionMs: f.medianTimeToDecisionMs,
    appeals: f.appeals,
  };
}
