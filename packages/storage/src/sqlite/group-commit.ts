import type Database from 'better-sqlite3';

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
 */
export function groupCommit(db: Database.Database): <T>(work: () => T) => Promise<T> {
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
  const flush = () => {
    const batch = pending;
    pending = [];
    let outcomes: Outcome[];
    try {
      outcomes = commitAll.immediate(batch);
    } catch (err) {
      // The commit itself failed: none of the batch is stored.
      for (const p of batch) p.reject(err);
      return;
    }
    batch.forEach((p, i) => {
      const o = outcomes[i]!;
      if (o.ok) p.resolve(o.value);
      else p.reject(o.err);
    });
  };
  return <T>(work: () => T) =>
    new Promise<T>((resolve, reject) => {
      if (pending.push({ work, resolve: resolve as (v: unknown) => void, reject }) === 1) setImmediate(flush);
    });
}
