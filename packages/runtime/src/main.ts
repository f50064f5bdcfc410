import type { Logger } from 'pino';
import { ConfigError } from './config.js';
import { startTracing } from './tracing.js';

/**
 * Runs a process entry point: a configuration error prints one line per bad variable and exits 1,
 * without a stack trace; anything else is logged and exits 1.
 */
export function runMain(name: string, main: () => Promise<unknown>, logger?: () => Logger | undefined, tracing: { asyncContext?: boolean } = {}): void {
  // Tracing first, so the process's first spans have a provider (nothing happens when it is off).
  startTracing(name, tracing).then(main).catch((err: unknown) => {
    if (err instanceof ConfigError) {
      for (const line of err.lines) process.stderr.write(`${name}: invalid configuration: ${line}\n`);
    } else {
      const log = logger?.();
      if (log) log.fatal({ err }, 'failed to start');
      else process.stderr.write(`${name}: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    }
    process.exit(1);
  });
}
