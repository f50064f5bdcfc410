import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort, killOnExit } from './harness.js';

/**
 * A redis-server of a test's own (for tests that stop and restart Redis), with AOF and
 * appendfsync always as `npm start` runs it. Stopped by PID only.
 */
export class PrivateRedis {
  private child?: ChildProcess;
  private constructor(
    readonly port: number,
    readonly dir: string,
    /** Further redis-server arguments, after ours (so they win), e.g. `['--appendonly', 'no']`. */
    private readonly args: string[] = [],
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(args: string[] = []): Promise<PrivateRedis> {
    const r = new PrivateRedis(await freePort(), mkdtempSync(join(tmpdir(), 'rm-fault-redis-')), args);
    await r.up();
    return r;
  }

  /** Starts (or restarts) the server on the same port and folder; resolves once it answers. */
  async up(): Promise<void> {
    this.child = killOnExit(spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(this.port), '--dir', this.dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', ...this.args], { stdio: 'ignore' }));
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const client = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      client.on('error', () => undefined);
      try {
        await client.connect();
        if ((await client.ping()) === 'PONG') {
          // The AOF may still be loading; PING answers only once it is loaded.
          client.disconnect();
          return;
        }
      } catch {
        client.disconnect();
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`redis-server did not start on port ${this.port}`);
  }

  /** Stops the server: SIGTERM (it flushes the AOF) or SIGKILL (a crash). */
  async down(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((ok) => child.once('exit', ok));
    child.kill(signal);
    await exited;
  }

  async stop(): Promise<void> {
    await this.down();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
