import type { SanctionFeedQuery, SanctionFeedResponse } from '@rm/contracts';
import { toEventView } from '@rm/delivery';
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
    // The webhook's body is the same view: a feed event and its webhook always agree.
    events: events.map(toEventView),
    next: String(events.at(-1)?.seq ?? after),
  };
}
