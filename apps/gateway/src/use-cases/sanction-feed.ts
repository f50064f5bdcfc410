import type { SanctionFeedQuery, SanctionFeedResponse } from '@rm/contracts';
import type { Store } from '@rm/storage';

/**
 * GET /v1/sanctions: the changes after the cursor, in seq order. `next` is the last seq of the
 * page, or the cursor itself when nothing newer exists yet, so a follower just keeps passing it.
 */
export async function sanctionFeed(store: Store, query: SanctionFeedQuery): Promise<SanctionFeedResponse> {
  const after = Number(query.after ?? '0');
  const events = await store.sanctionFeed(after, query.limit);
  return {
    success: true,
    events: events.map((e) => ({ seq: e.seq, type: e.type, sanctionId: e.sanctionId, userId: e.userId, caseId: e.caseId, kind: e.kind, expiresAt: e.expiresAt, at: e.at, statement: e.statement })),
    next: String(events.at(-1)?.seq ?? after),
  };
}
