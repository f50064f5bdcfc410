import { closeSync, fsync, openSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { withoutSync } from './durability.js';

type Pending = { work: () => unknown; resolve: (value: unknown) => void; reject: (err: unknown) => void };
type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

/**
 * How long a write that needs no commit of its own (`later`) waits for a group to ride with
 * before it commits alone.
 */
export const LATER_MS = 25;

/**
 * Group commit: the writes asked for within one turn of the event loop commit together, in one
 * write transaction and so one fsync. Under load a worker has several decisions in flight, and an
 * fsync per decision (about 0.5 ms on a quiet disk, several under load, with the event loop
 * blocked meanwhile) was the moderation worker's ceiling. Alone, a write commits at the next
 * `setImmediate`, as soon as it would have.
 *
 * Each write runs in a savepoint of its own: one that throws is rolled back alone and its caller
 * gets the error; the others commit. Every promise settles only after the commit is on disk, so a
 * caller never acts on a write that a power cut could still take back.
 *
 * The disk wait is off the event loop: the transaction commits into the WAL without a sync
 * (`synchronous = NORMAL`), then the WAL file is fsync'd on libuv's thread pool, and only then do
 * the promises settle. The worker meanwhile runs other decisions' code instead of blocking in
 * the commit. A checkpoint that moves these frames into the database file first syncs it itself.
 *
 * `later` is for bookkeeping whose loss in a crash is harmless (the outbox's done marks): it rides
 * the next group, where its pages are mostly those the group writes anyway, instead of a write
 * transaction of its own per call; with no group within LATER_MS it commits alone, unsynced.
 */
export function groupCommit(
  db: Database.Database,
  walFile: string,
): { commit: <T>(work: () => T) => Promise<T>; later: <T>(work: () => T) => Promise<T>; close: () => void } {
  // Nested inside `commitAll`, better-sqlite3 runs a transaction function as a savepoint.
  const inSavepoint = db.transaction((work: () => unknown) => work());
  const commitAll = db.transaction((batch: Pending[]) =>
    batch.map(({ work }): Outcome => {
      try {
        return { ok: true, value: inSavepoint(work) };
      } catch (err) {
        return { ok: false, err };
      }
    }),
  );
  let pending: Pending[] = [];
  let laters: Pending[] = [];
  let laterTimer: NodeJS.Timeout | null = null;
  // The store is in WAL mode by now, so the file exists, and stays while a connection is open.
  const wal = openSync(walFile, 'r+');
  // Closed only once no fsync is in flight: a number reused by another file would sync that one.
  let syncing = 0;
  let closed = false;
  const closeIfIdle = () => {
    if (closed && syncing === 0) closeSync(wal);
  };
  const flush = () => {
    const synced = pending.length > 0;
    const batch = [...pending, ...laters];
    pending = [];
    laters = [];
    if (laterTimer) clearTimeout(laterTimer);
    laterTimer = null;
    if (batch.length === 0) return;
    let outcomes: Outcome[];
    try {
      if (closed) throw new Error('the store is closed');
      outcomes = withoutSync(db, () => commitAll.immediate(batch));
    } catch (err) {
      // The commit itself failed: none of the batch is stored.
      for (const p of batch) p.reject(err);
      return;
    }
    if (!synced) {
      batch.forEach((p, i) => settle(p, outcomes[i]!));
      return;
    }
    syncing += 1;
    fsync(wal, (err) => {
      syncing -= 1;
      closeIfIdle();
      // Not known to be on disk: the callers retry, and a retried decision finds itself recorded.
      batch.forEach((p, i) => (err ? p.reject(err) : settle(p, outcomes[i]!)));
    });
  };
  const settle = (p: Pending, o: Outcome) => (o.ok ? p.resolve(o.value) : p.reject(o.err));
  return {
    commit: <T>(work: () => T) =>
      new Promise<T>((resolve, reject) => {
        if (pending.push({ work, resolve: resolve as (v: unknown) => void, reject }) === 1) setImmediate(flush);
      }),
    later: <T>(work: () => T) =>
      new Promise<T>((resolve, reject) => {
        laters.push({ work, resolve: resolve as (v: unknown) => void, reject });
        laterTimer ??= setTimeout(flush, LATER_MS);
      }),
    close: () => {
      if (closed) return;
      // What is waiting commits now rather than fail after the store is gone.
      flush();
      closed = true;
      closeIfIdle();
    },
  };
}
