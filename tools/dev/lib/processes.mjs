import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { ROOT } from './bootstrap.mjs';
import { say } from './log.mjs';

/** The processes of the system: each app's built entry point. */
export const APPS = {
  gateway: 'apps/gateway/dist/main.js',
  'intake-worker': 'apps/intake-worker/dist/main.js',
  'moderation-worker': 'apps/moderation-worker/dist/main.js',
  'notification-worker': 'apps/notification-worker/dist/main.js',
};

function prefixLines(stream, prefix, out) {
  createInterface({ input: stream }).on('line', (line) => out.write(`${prefix} ${line}\n`));
}

/**
 * Runs a named app as a child process with prefixed output, restarting it if it dies (after a
 * short pause) until stop() is called.
 */
export function supervise(name, entry, env) {
  let child;
  let stopping = false;
  let restarts = 0;
  const prefix = `[${name}]`;
  const start = () => {
    child = spawn(process.execPath, [join(ROOT, entry)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
