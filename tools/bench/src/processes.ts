import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './fixtures.js';

export interface Proc {
  name: string;
  pid: number;
  stop(): Promise<void>;
}

/** With BENCH_PROFILE_DIR set, every process writes a CPU profile there when it stops (`<name>.cpuprofile`). */
function profileArgs(name: string): string[] {
  const dir = process.env['BENCH_PROFILE_DIR'];
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}.cpuprofile`] : [];
}

/**
 * Starts a built entry point as its own process (with `node` flags); the tail of its output (the
 * processes log to stdout) is kept for the message when it exits with an error.
 */
export function startProcess(name: string, entry: string, env: NodeJS.ProcessEnv, node: string[] = []): Proc {
  const child: ChildProcess = spawn(process.execPath, [...node, ...profileArgs(name), join(ROOT, entry)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (d: Buffer) => (output = (output + String(d)).slice(-2000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  child.on('exit', (code) => {
    if (code && code !== 0) process.stderr.write(`${name} exited with ${code}: ${output}\n`);
  });
  return {
    name,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

export async function waitHttp(url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await fetch(url, { method: 'POST' });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** Resident memory of a process in MB, from /proc (0 when it cannot be read). */
export function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

/** Samples the peak RSS of some processes until stopped. */
export function sampleRss(procs: { name: string; pid: number }[]): () => Record<string, number> {
  const peak: Record<string, number> = Object.fromEntries(procs.map((p) => [p.name, 0]));
  const timer = setInterval(() => {
    for (const p of procs) peak[p.name] = Math.max(peak[p.name]!, rssMb(p.pid));
  }, 250);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

/** The gateway's Node flags, as `npm start`, the compose file and the Kubernetes manifests start it. */
export const GATEWAY_NODE_ARGS = ['--max-old-space-size=128'];

/**
 * Runs a bench's body; a failure is printed and sets the exit code. Whatever happened, the
 * processes it started are stopped (by PID), the connections it registered in `closers` closed
 * (an open one would keep a failed run from exiting) and its data directory removed.
 */
export async function runBench(body: () => Promise<void>, o: { say: (m: string) => void; running: Proc[]; dataDir: string; closers?: (() => void)[] }): Promise<void> {
  try {
    await body();
  } catch (err) {
    o.say(`failed: ${(err as Error).stack ?? err}`);
    process.exitCode = 1;
  } finally {
    for (const close of o.closers ?? []) close();
    for (const p of o.running) await p.stop();
    rmSync(o.dataDir, { recursive: true, force: true });
  }
}

/**
 * What a bench part starts from: the Redis `npm run bench` started for it (REDIS_URL), a fresh
 * data directory, and the environment of the system's processes (`extra` on top).
 */
export function benchSystem(part: string | null, extra: NodeJS.ProcessEnv): { redisUrl: string; dataDir: string; env: NodeJS.ProcessEnv } {
  const redisUrl = process.env['REDIS_URL'];
  if (!redisUrl) throw new Error(`REDIS_URL is not set: run \`npm run bench${part ? ` -- ${part}` : ''}\`, which starts a Redis for it`);
  const dataDir = mkdtempSync(join(tmpdir(), part ? `rm-bench-${part}-` : 'rm-bench-'));
  return { redisUrl, dataDir, env: { PATH: process.env['PATH'], REDIS_URL: redisUrl, DATA_DIR: dataDir, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...extra } };
}

/** That Redis as a process to meter, when the launcher named its PID (REDIS_PID). */
export function redisProcs(): { name: string; pid: number }[] {
  const pid = Number(process.env['REDIS_PID'] ?? 0);
  return pid ? [{ name: 'redis', pid }] : [];
}
