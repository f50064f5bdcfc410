import { useCallback, useEffect, useRef, useState } from 'react';

export interface Polled<T> {
  data: T | undefined;
  error: string | undefined;
  /** Fetch again now (after an action), without waiting for the next tick. */
  refresh: () => void;
}

/**
 * Calls `load` now and every `intervalMs` while the page is shown, keeping the last good answer
 * on screen when one call fails. `key` restarts it (new filters, another case).
 */
export function usePoll<T>(load: () => Promise<T>, intervalMs: number, key: string): Polled<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const loadRef = useRef(load);
  loadRef.current = load;
  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => setTick((n) => n + 1), []);

  useEffect(() => {
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      try {
        const next = await loadRef.current();
        if (!alive) return;
        setData(next);
        setError(undefined);
      } catch (err) {
        if (alive) setError((err as Error).message);
      }
      if (alive) timer = setTimeout(run, intervalMs);
    };
    void run();
    return () => {
      alive = false;
      if (timer) clearTimeout(timer);
    };
  }, [key, intervalMs, tick]);

  useEffect(() => setData(undefined), [key]);
  return { data, error, refresh };
}
