import type { Logger } from 'pino';
import { stopTracing } from './tracing.js';

type Closer = () => Promise<unknown> | unknown;

/** Returns a function that runs `fn` once; later calls get the same promise. */
export function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () => (result ??= fn());
}

/** How long a process may take to stop after SIGTERM (workers finish their active jobs within it). */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Calls the closers in order on SIGINT/SIGTERM, then exits 0; a second signal or the grace period
 * running out exits 1. Closers run once however many signals arrive.
 */
export function onShutdown(logger: Logger, closers: Closer[], graceMs = SHUTDOWN_GRACE_MS): () => Promise<void> {
  const shutdown = once(async () => {
    const timer = setTimeout(() => {
      logger.error({ graceMs }, 'shutdown took too long, exiting');
      process.exit(1);
    }, graceMs);
    timer.unref();
    for (const close of closers) {
      try {
        await close();
      } catch (err) {
        logger.error({ err }, 'error while shutting down');
      }
    }
    // The last spans flushed to the collector (nothing when tracing is off).
    await stopTracing().catch((err: unknown) => logger.warn({ err }, 'could not flush the last spans'));
    clearTimeout(timer);
  });
  const handler = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'shutting down');
    void shutdown().then(() => process.exit(0));
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return shutdown;
}
