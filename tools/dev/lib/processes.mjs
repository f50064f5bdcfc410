import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { ROOT } from './bootstrap.mjs';
import { say } from './log.mjs';

/**
 * The processes of the system: each app's built entry point and Node flags. The gateway's heap is
 * capped: V8 otherwise lets garbage pile up to about twice the live heap (~50 MB) before a full
 * collection, and the cap kept its RSS under load at ~135 MB instead of ~190 MB at no measured
 * cost in throughput (docs/performance.md).
 */
export const APPS = {
  gateway: { entry: 'apps/gateway/dist/main.js', node: ['--max-old-space-size=128'] },
  'intake-worker': { entry: 'apps/intake-worker/dist/main.js', node: [] },
  'moderation-worker': { entry: 'apps/moderation-worker/dist/main.js', node: [] },
  'notification-worker': { entry: 'apps/notification-worker/dist/main.js', node: [] },
  'evidence-worker': { entry: 'apps/evidence-worker/dist/main.js', node: [] },
};

function prefixLines(stream, prefix, out) {
  createInterface({ input: stream }).on('line', (line) => out.write(`${prefix} ${line}\n`));
}

/**
 * Runs a named app as a child process with prefixed output, restarting it if it dies (after a
 * short pause) until stop() is called.
 */
export function supervise(name, app, env) {
  let child;
  let stopping = false;
  let restarts = 0;
  const prefix = `[${name}]`;
  const start = () => {
    child = spawn(process.execPath, [...app.node, join(ROOT, app.entry)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    prefixLines(child.stdout, prefix, process.stdout);
    prefixLines(child.stderr, prefix, process.stderr);
    child.on('exit', (code, signal) => {
      if (stopping) return;
      restarts += 1;
      const delay = Math.min(1000 * restarts, 10_000);
      say(`${name} exited (${signal ?? code}); restarting in ${delay} ms`);
      setTimeout(() => !stopping && start(), delay).unref();
    });
  };
  start();
  return {
    name,
    get pid() {
      return child.pid;
    },
    stop(graceMs = 15_000) {
      stopping = true;
      return new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      });
    },
  };
}
