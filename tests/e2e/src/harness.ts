import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { QueueKey } from '@rm/contracts';
import { commonConfig, createRedis, loadConfig, openQueue, type Redis } from '@rm/runtime';

export const ROOT = resolve(import.meta.dirname, '../../..');

export const APPS = {
  gateway: 'apps/gateway/dist/main.js',
  intake: 'apps/intake-worker/dist/main.js',
  moderation: 'apps/moderation-worker/dist/main.js',
  notification: 'apps/notification-worker/dist/main.js',
  evidence: 'apps/evidence-worker/dist/main.js',
} as const;
export type AppName = keyof typeof APPS;

/** The queue each worker consumes: it is ready once it registered there. */
const WORKER_QUEUES: Record<Exclude<AppName, 'gateway'>, QueueKey> = { intake: 'intake', moderation: 'decisions', notification: 'notifications', evidence: 'evidence' };

export interface HttpResult<T = any> {
  status: number;
  body: T;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => ok(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Every process the tests started and that still runs: ended when the test process exits. */
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Ends `child` with the test process if it still runs then (for servers a test starts itself). */
export function killOnExit(child: ChildProcess): ChildProcess {
  live.add(child);
  child.on('exit', () => live.delete(child));
  return child;
}

export function redisUrl(): string {
  const url = process.env['REDIS_URL'];
  if (!url) throw new Error('REDIS_URL is not set: run the tests with `npm test`, which starts a Redis for them');
  return url;
}

/** `launch` goes before `node` (e.g. nsenter into a mount namespace: faults/small-disk.ts). */
export function runNode(entry: string, args: string[], env: NodeJS.ProcessEnv, input?: string, launch: string[] = []): Promise<CliResult> {
  return new Promise((ok) => {
    const [command, ...prefix] = [...launch, process.execPath];
    const child = spawn(command!, [...prefix, join(ROOT, entry), ...args], { env, cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
    child.on('exit', (code) => ok({ code: code ?? 1, stdout, stderr }));
  });
}

export interface Key {
  key: string;
  secret: string;
  auth: string;
}

/**
 * A whole system for one test file: its own data folder, queue prefix and port, the real built
 * processes, the real Redis from REDIS_URL. Stops only the processes it started.
 */
export class System {
  readonly env: NodeJS.ProcessEnv;
  readonly baseUrl: string;
  private readonly processes = new Map<AppName, ChildProcess>();
  private readonly logs = new Map<AppName, string[]>();

  private constructor(
    readonly dataDir: string,
    readonly prefix: string,
    port: number,
    extraEnv: Record<string, string>,
    private readonly appEnv: Partial<Record<AppName, Record<string, string>>> = {},
    /** False for a second set of processes sharing another system's data (see `alongside`). */
    private readonly ownsData = true,
    /** Put before `node` for every process and CLI run (see `start`). */
    private readonly launch: string[] = [],
  ) {
    this.baseUrl = `http://127.0.0.1:${port}`;
    this.env = {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      REDIS_URL: redisUrl(),
      DATA_DIR: dataDir,
      KEY_PREFIX: prefix,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // Many systems run at once: worker ops ports are off unless a test asks for one.
      METRICS_PORT: '0',
      // On MongoDB, a fresh database per system, migrated by whichever process opens it first.
      ...(process.env['MONGODB_URL'] ? { MONGODB_URL: process.env['MONGODB_URL'], MONGODB_DB: `rm_${prefix}`, MIGRATIONS: 'run' } : {}),
      ...extraEnv,
    };
  }

  /**
   * `env` goes to every process and the CLI; `appEnv` adds to it for one app (e.g. its METRICS_PORT).
   * `dataDir` is a folder the caller owns (a temporary one of the system's own by default), and
   * `launch` a command every process and CLI run starts through (e.g. nsenter into the mount
   * namespace where `dataDir` is a small disk: faults/small-disk.ts). `port`: the gateway's, when a
   * test must know it before the system starts (an identity provider's redirect).
   */
  static async start(
    options: { apps?: AppName[]; env?: Record<string, string>; appEnv?: Partial<Record<AppName, Record<string, string>>>; dataDir?: string; launch?: string[]; port?: number } = {},
  ): Promise<System> {
    const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'rm-e2e-'));
    const system = new System(dataDir, `t${randomBytes(4).toString('hex')}`, options.port ?? (await freePort()), options.env ?? {}, options.appEnv, options.dataDir === undefined, options.launch);
    return system.startAll(options.apps);
  }

  /**
   * Starts `apps` (all by default) side by side (none needs another to start); a system that
   * cannot start leaves none of its processes behind.
   */
  private async startAll(apps: AppName[] = Object.keys(APPS) as AppName[]): Promise<System> {
    const started = await Promise.allSettled(apps.map((app) => this.startApp(app)));
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    try {
      if (failed) throw failed.reason;
    } catch (err) {
      await this.stop();
      throw err;
    }
    return this;
  }

  /**
   * A second copy of every process (or of `apps`) sharing this system's Redis, queues and store,
   * with its own gateway port: several gateways and workers at once, as when scaled out. `env`
   * changes some of their settings.
   */
  async alongside(options: { apps?: AppName[]; env?: Record<string, string> } = {}): Promise<System> {
    const extra: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...this.env, ...options.env })) if (v !== undefined && k !== 'PORT') extra[k] = v;
    const twin = new System(this.dataDir, this.prefix, await freePort(), extra, this.appEnv, false, this.launch);
    return twin.startAll(options.apps);
  }

  async startApp(app: AppName): Promise<void> {
    const [command, ...prefix] = [...this.launch, process.execPath];
    const child = spawn(command!, [...prefix, join(ROOT, APPS[app])], { env: { ...this.env, ...this.appEnv[app] }, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    this.logs.set(app, lines);
    child.stdout!.on('data', (d) => lines.push(String(d)));
    child.stderr!.on('data', (d) => lines.push(String(d)));
    this.processes.set(app, killOnExit(child));
    if (app === 'gateway') {
      await this.waitFor(async () => {
        if (child.exitCode !== null) throw new Error(`gateway exited: ${lines.join('')}`);
        try {
          await fetch(`${this.baseUrl}/v1/reports/check`, { method: 'POST' });
          return true;
        } catch {
          return false;
        }
      }, 20_000);
    } else {
      // Workers are ready once their BullMQ worker registered; a short wait for its first poll.
      await this.waitFor(async () => {
        if (child.exitCode !== null) throw new Error(`${app} exited: ${lines.join('')}`);
        return this.workerCount(WORKER_QUEUES[app]).then((n) => n > 0);
      }, 20_000);
    }
  }

  private async workerCount(key: QueueKey): Promise<number> {
    const q = this.queue(key);
    return (await q.getWorkers()).length;
  }

  /** Stops one app: SIGTERM (graceful) or SIGKILL (crash). */
  async stopApp(app: AppName, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const child = this.processes.get(app);
    if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
    child.kill(signal);
    const code = await exited;
    this.processes.delete(app);
    return code;
  }

  /** The PID of a running app (to read its /proc entry), undefined when it is not running. */
  pidOf(app: AppName): number | undefined {
    const child = this.processes.get(app);
    return child && child.exitCode === null && child.signalCode === null ? child.pid : undefined;
  }

  logsOf(app: AppName): string {
    return (this.logs.get(app) ?? []).join('');
  }

  private readonly queues = new Map<QueueKey, Queue>();
  private redis?: Redis;

  /** Direct access to a BullMQ queue of this system (for redelivery tests). */
  queue(key: QueueKey): Queue {
    let q = this.queues.get(key);
    if (!q) {
      // The processes' own configuration, so a system on a Redis Cluster is reached as one too.
      this.redis ??= createRedis(loadConfig(commonConfig, this.env));
      q = openQueue(key, this.redis, this.prefix);
      // A test that takes Redis down would otherwise have BullMQ print every connection error.
      q.on('error', () => undefined);
      this.queues.set(key, q);
    }
    return q;
  }

  cli(args: string[], extraEnv: Record<string, string> = {}): Promise<CliResult> {
    return runNode('tools/cli/dist/main.js', args, { ...this.env, ...extraEnv }, undefined, this.launch);
  }

  async createKey(args: string[]): Promise<Key> {
    const r = await this.cli(['apikey', 'create', '--name', 'test', ...args, '--json']);
    if (r.code !== 0) throw new Error(`apikey create failed: ${r.stderr}`);
    const parsed = JSON.parse(r.stdout) as { key: string; secret: string };
    return { key: parsed.key, secret: parsed.secret, auth: `${parsed.key}:${parsed.secret}` };
  }

  async addUser(id: string, name = `player${id}`, displayName = `Player ${id}`, avatar?: string): Promise<void> {
    const r = await this.cli(['user', 'add', '--id', id, '--name', name, '--display-name', displayName, ...(avatar ? ['--avatar', avatar] : [])]);
    if (r.code !== 0) throw new Error(`user add failed: ${r.stderr}`);
  }

  async addModerator(id: string, username: string): Promise<void> {
    const r = await this.cli(['moderator', 'add', '--id', id, '--username', username]);
    if (r.code !== 0) throw new Error(`moderator add failed: ${r.stderr}`);
  }

  async request<T = any>(method: string, path: string, options: { auth?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}): Promise<HttpResult<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.auth !== undefined) headers['authorization'] = options.auth;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, ...(body !== undefined && { body }) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: res.status, body: parsed as T };
  }

  post<T = any>(path: string, auth: string, body: unknown): Promise<HttpResult<T>> {
    return this.request<T>('POST', path, { auth, body });
  }

  get<T = any>(path: string, auth: string): Promise<HttpResult<T>> {
    return this.request<T>('GET', path, { auth });
  }

  async waitFor(check: () => Promise<boolean>, timeoutMs = 15_000, what = 'condition'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.processes.keys()].map((app) => this.stopApp(app)));
    for (const q of this.queues.values()) await q.close();
    this.redis?.disconnect();
    if (this.ownsData) rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** A valid submission body; override any part. */
export function report(userId: string, reporterId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    userId,
    answers: [{ questionId: 'q1', answer: 'Used an aimbot in ranked' }],
    evidence: [{ url: 'https://clips.example/1', type: 'url' }],
    reporter: { id: reporterId, platform: 'gameplatform' },
    ...overrides,
  };
}

/** Every error answer has the section 7 shape. */
export function isErrorShape(body: any): boolean {
  if (typeof body !== 'object' || body === null || body.success !== false || typeof body.message !== 'string') return false;
  const allowed = new Set(['success', 'message', 'errors']);
  if (Object.keys(body).some((k) => !allowed.has(k))) return false;
  if (body.errors === undefined) return true;
  return Array.isArray(body.errors) && body.errors.every((e: any) => typeof e.field === 'string' && typeof e.message === 'string' && Object.keys(e).length === 2);
}
