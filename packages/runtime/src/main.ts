import { setFlagsFromString } from 'node:v8';
import type { Logger } from 'pino';
import { ConfigError } from './config.js';

/**
 * V8 "pretenures" an allocation site whose objects it saw survive a young-generation collection:
 * later objects from there are made in the old generation. A server's objects live for one
 * request or job, but whether a site looked long-lived depends on what was in flight at an early
 * collection, so some processes of the same build took that path and spent a quarter of their
 * time collecting garbage. Off, every process runs like the good ones (docs/performance.md).
 */
const V8_FLAGS = '--no-allocation-site-pretenuring';

/**
 * Runs a process entry point, with V8_FLAGS set first: a configuration error prints one line per
 * bad variable and exits 1, without a stack trace; anything else is logged and exits 1.
 */
export function runMain(name: string, main: () => Promise<unknown>, logger?: () => Logger | undefined): void {
  setFlagsFromString(V8_FLAGS);
  main().catch((err: unknown) => {
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
