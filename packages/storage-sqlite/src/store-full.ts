import { StoreFullError } from '@rm/storage';

/**
 * SQLite's "database or disk is full" (SQLITE_FULL: the transaction that met it rolled back
 * whole), or ENOSPC from the group commit's own fsync of the WAL (a file system that allocates
 * late answers there; the callers were not told the write stood, and retry it).
 */
function isFull(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return code === 'SQLITE_FULL' || code === 'ENOSPC';
}

const translated = (err: unknown): unknown => (isFull(err) ? new StoreFullError({ cause: err }) : err);

/**
 * The store with SQLITE_FULL answered as the port's StoreFullError, whichever method met it (a
 * write, or a read that had to spill), so the processes above can tell a full disk from a fault of
 * the call and say so once a minute instead of once per job.
 */
export function answeringStoreFull<S extends object>(store: S): S {
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(store)) {
    if (typeof value !== 'function') {
      wrapped[name] = value;
      continue;
    }
    const method = value as (...args: unknown[]) => unknown;
    wrapped[name] = (...args: unknown[]): unknown => {
      let out: unknown;
      try {
        out = method.apply(store, args);
      } catch (err) {
        throw translated(err);
      }
      return out instanceof Promise ? out.catch((err: unknown) => Promise.reject(translated(err))) : out;
    };
  }
  return wrapped as S;
}
