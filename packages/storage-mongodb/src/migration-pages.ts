import type { ClientSession } from 'mongodb';
import type { Collections } from './collections.js';

/** What one page of a migration did: the items it covered, and the key of the last one (null: none). */
export interface PageDone {
  count: number;
  last: string | null;
}

/**
 * One page of a migration, inside the transaction that also records its progress (migrations.ts):
 * at most `limit` items by key after `after` ('' on the first page). A page covering fewer than
 * `limit` items is the last.
 */
export type MigrationPage = (c: Collections, session: ClientSession, after: string, limit: number) => Promise<PageDone>;
