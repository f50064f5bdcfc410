import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, killOnExit } from './harness.js';

const run = promisify(execFile);

/**
 * A real Redis Cluster of `masters` redis-server processes on loopback ports (no replicas), made
 * with `redis-cli --cluster create`. Stopped by PID only, its folder removed.
 */
export class RedisCluster {
  private readonly children: ChildProcess[] = [];

  private constructor(
    readonly ports: number[],
    private readonly dir: string,
  ) {}

  /** REDIS_CLUSTER_NODES for the processes. */
  get nodes(): string {
    return this.ports.map((p) => `127.0.0.1:${p}`).join(',');
  }

  static async start(masters = 3): Promise<RedisCluster> {
    const ports: number[] = [];
    // Each node needs a second, cluster-bus port; asked for explicitly since port + 10000 may be taken.
    const busPorts: number[] = [];
    while (ports.length < masters) {
      const [port, bus] = [await freePort(), await freePort()];
      if (port !== bus && !ports.includes(bus) && !busPorts.includes(port)) {
        ports.push(port);
        busPorts.push(bus);
      }
    }
    const cluster = new RedisCluster(ports, mkdtempSync(join(tmpdir(), 'rm-cluster-')));
    try {
      ports.forEach((port, i) => cluster.spawnNode(port, busPorts[i]!));
      for (const port of ports) await cluster.untilAnswers(port);
      const addresses = ports.map((p) => `127.0.0.1:${p}`);
      await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes'], { timeout: 30_000 });
      for (const port of ports) await cluster.untilClusterOk(port);
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  private spawnNode(port: number, busPort: number): void {
    const dir = join(this.dir, String(port));
    mkdirSync(dir);
    const args = ['--bind', '127.0.0.1', '--port', String(port), '--cluster-enabled', 'yes', '--cluster-port', String(busPort)];
    args.push('--cluster-config-file', join(dir, 'nodes.conf'), '--cluster-node-timeout', '5000', '--dir', dir, '--save', '', '--appendonly', 'no');
    this.children.push(killOnExit(spawn('redis-server', args, { stdio: 'ignore' })));
  }

  /** Runs redis-cli against one node and returns its output. */
  async cli(port: number, ...args: string[]): Promise<string> {
    return (await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 10_000 })).stdout;
  }

  private async untilAnswers(port: number): Promise<void> {
    await this.until(async () => (await this.cli(port, 'ping')).trim() === 'PONG', `redis-server on ${port}`);
  }

  private async untilClusterOk(port: number): Promise<void> {
    await this.until(async () => (await this.cli(port, 'cluster', 'info')).includes('cluster_state:ok'), `cluster state ok on ${port}`);
  }

  private async until(check: () => Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (await check().catch(() => false)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  /** Every key on one node that starts with `prefix`. */
  async keysOn(port: number, prefix: string): Promise<string[]> {
    return (await this.cli(port, '--scan', '--pattern', `${prefix}*`)).split('\n').filter(Boolean);
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((ok) => child.once('exit', ok));
        child.kill('SIGTERM');
        await exited;
      }),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}
