import { closeSync, fsync, openSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { withoutSync } from './durability.js';

type Pending = { work: () => unknown; resolve: (value: unknown) => void; reject: (err: unknown) => void };
type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

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
 */
export function groupCommit(db: Database.Database, walFile: string): { commit: <T>(work: () => T) => Promise<T>; close: () => void } {
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
  // The store is in WAL mode by now, so the file exists, and stays while a connection is open.
  const wal = openSync(walFile, 'r+');
  // Closed only once no fsync is in flight: a number reused by another file would sync that one.
  let syncing = 0;
  let closed = false;
  const closeIfIdle = () => {
    if (closed && syncing === 0) closeSync(wal);
  };
  const flush = () => {
    const batch = pending;
    pending = [];
    let outcomes: Outcome[];
    try {
      if (closed) throw new Error('the store is closed');
      outcomes = withoutSync(db, () => commitAll.immediate(batch));
    } catch (err) {
      // The commit itself failed: none of the batch is stored.
      for (const p of batch) p.reject(err);
      return;
    }
    syncing += 1;
    fsync(wal, (err) => {
      syncing -= 1;
      closeIfIdle();
      batch.forEach((p, i) => {
        const o = outcomes[i]!;
        // Not known to be on disk: the callers retry, and a retried decision finds itself recorded.
        if (err) p.reject(err);
        else if (o.ok) p.resolve(o.value);
        else p.reject(o.err);
      });
    });
  };
  return {
    commit: <T>(work: () => T) =>
      new Promise<T>((resolve, reject) => {
        if (pending.push({ work, resolve: resolve as (v: unknown) => void, reject }) === 1) setImmediate(flush);
      }),
    close: () => {
      if (closed) return;
      closed = true;
      closeIfIdle();
    },
  };
}
