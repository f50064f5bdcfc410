import { StoreFullError } from './errors.js';

/**
 * An adapter's store whose methods answer a full disk as the port's StoreFullError, whichever
 * method met it (a write, or a read that had to spill), so the processes above can tell a full
 * disk from a fault of the call and say so once a minute instead of once per job. `isFull` is
 * the adapter's reading of its driver's errors.
 */
export function answeringStoreFull<S extends object>(store: S, isFull: (err: unknown) => boolean): S {
  const translated = (err: unknown): unknown => (isFull(err) ? new StoreFullError({ cause: err }) : err);
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
