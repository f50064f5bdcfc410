import type { ReporterOutcomesParams, ReporterOutcomesQuery, ReporterOutcomesResponse } from '@rm/contracts';
import type { ReporterStore } from '@rm/storage';

/**
 * GET /v1/reporters/{platform}/{reporterId}/outcomes: the reporter's decided reports after the
 * cursor, in the order of their latest change. Only whether action was taken, and when: nothing of
 * the sanction (kind, duration, reason) or of the other player's state. `next` is the last seq of
 * the page, or the cursor itself when nothing newer exists yet.
 */
export async function reporterOutcomes(store: ReporterStore, params: ReporterOutcomesParams, query: ReporterOutcomesQuery): Promise<ReporterOutcomesResponse> {
  const after = Number(query.after ?? '0');
  const outcomes = await store.reporterOutcomes({ platform: params.platform, id: params.reporterId }, after, query.limit);
  return {
    success: true,
    outcomes: outcomes.map((o) => ({ seq: o.seq, reportId: o.reportId, actioned: o.actioned, reopened: o.reopened, decidedAt: o.at })),
    next: String(outcomes.at(-1)?.seq ?? after),
  };
}
