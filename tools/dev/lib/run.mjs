import { spawn, spawnSync } from 'node:child_process';

/** Runs a command to completion with inherited output; resolves to its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', ...options });
    child.on('error', () => resolve(127));
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Where a program is on PATH (or in the usual sbin/bin folders), or null. */
export function which(program) {
  const found = spawnSync('sh', ['-c', `command -v ${program} || ls /usr/sbin/${program} /usr/bin/${program} /usr/local/bin/${program} 2>/dev/null | head -n 1`], { encoding: 'utf8' });
  const path = found.stdout.trim().split('\n')[0];
  return path ? path : null;
}
