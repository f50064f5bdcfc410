import { createHash } from 'node:crypto';
import type { SanctionFeedQuery, SanctionFeedResponse } from '@rm/contracts';
import { toEventView } from '@rm/delivery';
import { ExpiringCache } from '@rm/runtime';
import type { SanctionStore } from '@rm/storage';

/** How long a gateway keeps a full page, and a reader may: an erasure reaches cached pages within it. */
export const FEED_PAGE_TTL_S = 600;

/**
 * `If-None-Match` as RFC 9110 reads it: `*`, or a list of tags, weak (`W/`) or strong, compared
 * weakly; any one equal to `etag` matches.
 */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || (t.startsWith('W/') ? t.slice(2) : t) === etag;
  });
}

/** A feed page as sent: its JSON's bytes, and for a full page its ETag. */
export interface FeedPage {
  body: Buffer;
  etag: string | null;
}

/**
 * Full pages of the feed, as sent. A page of `limit` events after a cursor does not gain or lose
 * events: they become readable in seq order (a page never holds seq n+1 while n is still to come),
 * so every reader polling from that cursor gets the same bytes, until an erasure or the retention
 * sweep rewrites an event's personal data. Kept FEED_PAGE_TTL_S and bounded in bytes: memory goes
 * to the pages being read now, and a rewrite shows within that time.
 */
export class FeedPages {
  // Kept as bytes: a page of 1,000 events is about a megabyte, encoded once, not per reader.
  private readonly pages: ExpiringCache<FeedPage>;

  constructor(limits: { ttlMs: number; maxBytes: number } = { ttlMs: FEED_PAGE_TTL_S * 1000, maxBytes: 32 * 2 ** 20 }) {
    this.pages = new ExpiringCache(limits.ttlMs, { maxEntries: 10_000, maxBytes: limits.maxBytes, sizeOf: (key, page) => 2 * key.length + (page as FeedPage).body.length });
  }

  get(after: number, limit: number): FeedPage | undefined {
    return this.pages.get(`${after}:${limit}`);
  }

  set(after: number, limit: number, page: FeedPage): void {
    this.pages.set(`${after}:${limit}`, page);
  }
}

/**
 * GET /v1/sanctions: the changes after the cursor, in seq order. `next` is the last seq of the
 * page, or the cursor itself when nothing newer exists yet, so a follower just keeps passing it.
 * A full page is answered from `pages` once it was built.
 */
export async function sanctionFeed(store: SanctionStore, query: SanctionFeedQuery, pages?: FeedPages): Promise<FeedPage> {
  const after = Number(query.after ?? '0');
  const limit = query.limit;
  const kept = pages?.get(after, limit);
  if (kept !== undefined) return kept;
  const events = await store.sanctionFeed(after, limit);
  const page: SanctionFeedResponse = {
    success: true,
    // The webhook's body is the same view: a feed event and its webhook always agree.
    events: events.map(toEventView),
    next: String(events.at(-1)?.seq ?? after),
  };
  const body = Buffer.from(JSON.stringify(page));
  if (events.length < limit) return { body, etag: null };
  const full = { body, etag: `"feed-${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
  pages?.set(after, limit, full);
  return full;
}
