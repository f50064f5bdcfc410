import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, killOnExit, redisUrl, report, ROOT, runNode } from './harness.js';

// Issue 32 item 4: two systems side by side on one host, each started by the launcher (`npm start`,
// here with --no-build: the tree is built) with its own PORT, DATA_DIR, KEY_PREFIX and METRICS_PORT
// base. Each serves, each worker has its metrics port at base + offset, and a report sent to one
// is stored by that one only.

/** True when nothing listens on 127.0.0.1:port. */
const free = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen({ port, host: '127.0.0.1', exclusive: true }, () => s.close(() => resolve(true)));
  });

/** A base with base to base+3 free (the four workers' metrics ports), away from `avoid`. */
async function metricsBase(avoid: number[]): Promise<number> {
  for (;;) {
    // Below Linux's ephemeral range (32768 and up), where any outgoing connection of another test
    // may hold a port between this probe and the launch; every worker's port free: base + 0 to 3.
    const base = 20_000 + Math.floor(Math.random() * 12_000);
    if (avoid.some((a) => Math.abs(a - base) < 20)) continue;
    if ((await free(base)) && (await free(base + 1)) && (await free(base + 2)) && (await free(base + 3))) return base;
  }
}

interface Launched {
  child: ChildProcess;
  output: string[];
  env: NodeJS.ProcessEnv;
  port: number;
  metrics: number;
  dataDir: string;
}

const launched: Launched[] = [];

async function launch(port: number, metrics: number, extra: Record<string, string> = {}): Promise<Launched> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rm-launch-'));
  const env = {
    PATH: process.env['PATH'],
    HOME: process.env['HOME'],
    REDIS_URL: redisUrl(),
    KEY_PREFIX: `l${randomBytes(4).toString('hex')}`,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    METRICS_PORT: String(metrics),
    METRICS_HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...extra,
  };
  const child = killOnExit(spawn(process.execPath, [join(ROOT, 'tools/dev/start.mjs'), '--no-build'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] }));
  const output: string[] = [];
  child.stdout!.on('data', (d) => output.push(String(d)));
  child.stderr!.on('data', (d) => output.push(String(d)));
  const system = { child, output, env, port, metrics, dataDir };
  launched.push(system);
  return system;
}

async function until(check: () => Promise<boolean>, what: string, system: Launched, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (system.child.exitCode !== null) throw new Error(`the launcher exited (${system.child.exitCode}) before ${what}: ${system.output.join('')}`);
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}: ${system.output.join('')}`);
}

const ok = async (url: string) => (await fetch(url)).status === 200;

/** Ends the launcher (which stops its processes) and waits for it. */
async function stop(system: Launched): Promise<void> {
  if (system.child.exitCode !== null || system.child.signalCode !== null) return;
  const exited = new Promise((r) => system.child.once('exit', r));
  system.child.kill('SIGTERM');
  await exited;
}

afterAll(async () => {
  await Promise.all(launched.map(stop));
  for (const s of launched) rmSync(s.dataDir, { recursive: true, force: true });
});

describe('two systems started by the launcher on one host', () => {
  it('each serves on its own PORT, with its workers’ metrics at METRICS_PORT + 0, 1, 2, and its own data', async () => {
    const ports = [await freePort(), await freePort()];
    const baseA = await metricsBase(ports);
    const baseB = await metricsBase([...ports, baseA]);
    const a = await launch(ports[0]!, baseA);
    await until(() => ok(`http://127.0.0.1:${a.port}/health`), 'system A to serve', a);
    const b = await launch(ports[1]!, baseB);
    await until(() => ok(`http://127.0.0.1:${b.port}/health`), 'system B to serve', b);

    for (const s of [a, b]) {
      // intake, moderation, notification: base + 0, 1, 2; each answers /metrics as its own service.
      for (const [offset, service] of [[0, 'intake-worker'], [1, 'moderation-worker'], [2, 'notification-worker']] as const) {
        const url = `http://127.0.0.1:${s.metrics + offset}/metrics`;
        await until(() => ok(url), `${service} metrics on ${s.metrics + offset}`, s);
        expect(await (await fetch(url)).text()).toContain(`service="${service}"`);
      }
    }

    // Each system stores what it is sent, in its own data: keys and users are made with its CLI.
    const cli = (s: Launched, args: string[]) => runNode('tools/cli/dist/main.js', args, s.env);
    for (const [s, user] of [[a, '7101'], [b, '7102']] as const) {
      expect((await cli(s, ['user', 'add', '--id', user, '--name', `p${user}`, '--display-name', `P ${user}`])).code).toBe(0);
      const key = JSON.parse((await cli(s, ['apikey', 'create', '--name', 'launch', '--admin', '--json'])).stdout) as { key: string; secret: string };
      const auth = `${key.key}:${key.secret}`;
      const res = await fetch(`http://127.0.0.1:${s.port}/v1/reports/new`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(report(user, 'launch-reporter')) });
      expect(res.status).toBe(200);
      const list = async () => (await (await fetch(`http://127.0.0.1:${s.port}/v1/reports/${user}`, { headers: { authorization: auth } })).json()) as { count: number };
      await until(async () => (await list()).count === 1, `the report to be stored by system ${s === a ? 'A' : 'B'}`, s, 15_000);
    }
    expect(a.child.exitCode).toBeNull();
    expect(b.child.exitCode).toBeNull();
    // Nothing restarted: no process of either system crashed on a port the other holds.
    expect([...a.output, ...b.output].join('')).not.toMatch(/exited \(.*\); restarting/);
  });

  it('a third system on ports already taken is refused at once, naming the ports and the setting to change', async () => {
    const [a] = launched;
    const c = await launch(await freePort(), a!.metrics);
    const code = await new Promise<number | null>((r) => c.child.once('exit', r));
    expect(code).toBe(1);
    const out = c.output.join('');
    expect(out).toContain(`port ${a!.metrics} (intake-worker), ${a!.metrics + 1} (moderation-worker), ${a!.metrics + 2} (notification-worker), ${a!.metrics + 3} (evidence-worker) already in use`);
    expect(out).toContain('another METRICS_PORT');
  });

  it('a system with its own data but another system’s KEY_PREFIX on the same Redis is refused, naming that system’s data', async () => {
    const [a] = launched;
    const d = await launch(await freePort(), await metricsBase([a!.metrics]), { KEY_PREFIX: a!.env['KEY_PREFIX']! });
    const code = await new Promise<number | null>((r) => d.child.once('exit', r));
    expect(code).toBe(1);
    const out = d.output.join('');
    expect(out).toContain(`already serves the system with its data in ${a!.dataDir} under KEY_PREFIX ${a!.env['KEY_PREFIX']}: give this one its own KEY_PREFIX`);
    // System A still serves, and nothing of the refused one ran.
    expect(await ok(`http://127.0.0.1:${a!.port}/health`)).toBe(true);
  });
});
