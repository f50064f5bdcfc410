import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, killOnExit } from './harness.js';

const run = promisify(execFile);

/**
 * Debian's redis-sentinel, which `npm test` installs when missing (as root, as it does
 * redis-server); a clear error otherwise, rather than a test that cannot fail over.
 */
function sentinelBinary(): string {
  const found = spawnSync('sh', ['-c', 'command -v redis-sentinel || ls /usr/bin/redis-sentinel 2>/dev/null'], { encoding: 'utf8' }).stdout.trim().split('\n')[0];
  if (!found) throw new Error("redis-sentinel is not installed: `npm test` installs Debian's redis-sentinel when run as root; else apt-get install redis-sentinel");
  return found;
}

/**
 * A Sentinel-managed Redis on loopback ports, as the scenario asks: one primary, one
 * replica (both AOF `appendfsync always`), three Sentinels (quorum 2, a primary is down after 1 s
 * without an answer). Servers are killed and restarted by PID on their own port and folder; a
 * restarted former primary is turned into a replica by the Sentinels themselves.
 */
export class SentinelRedis {
  private readonly servers = new Map<number, ChildProcess>();
  private readonly sentinels: ChildProcess[] = [];

  private constructor(
    readonly name: string,
    readonly serverPorts: number[],
    readonly sentinelPorts: number[],
    private readonly dir: string,
  ) {}

  /** REDIS_SENTINELS for the processes. */
  /** The servers' password (in REDIS_URL) and the Sentinels' own (REDIS_SENTINEL_PASSWORD): both ask, as in production. */
  readonly password = 'server-secret';
  readonly sentinelPassword = 'sentinel-secret';

  /** REDIS_URL for the processes: the servers' credentials (the address is the Sentinels' to say). */
  get redisUrl(): string {
    return `redis://:${this.password}@127.0.0.1:${this.serverPorts[0]}`;
  }

  get sentinelsEnv(): string {
    return this.sentinelPorts.map((p) => `127.0.0.1:${p}`).join(',');
  }

  static async start(name = 'rm-primary'): Promise<SentinelRedis> {
    const ports: number[] = [];
    while (ports.length < 5) {
      const port = await freePort();
      if (!ports.includes(port)) ports.push(port);
    }
    const topology = new SentinelRedis(name, ports.slice(0, 2), ports.slice(2), mkdtempSync(join(tmpdir(), 'rm-sentinel-')));
    try {
      const [primary, replica] = topology.serverPorts as [number, number];
      topology.startServer(primary);
      topology.startServer(replica, primary);
      await topology.until(async () => (await topology.cli(replica, 'info', 'replication')).includes('master_link_status:up'), 'the replica in sync');
      for (const port of topology.sentinelPorts) topology.startSentinel(port, primary);
      // Each Sentinel must know the replica and the two others before a failover can be voted.
      for (const port of topology.sentinelPorts) {
        await topology.until(async () => {
          const replicas = await topology.cli(port, 'sentinel', 'replicas', name);
          const others = await topology.cli(port, 'sentinel', 'sentinels', name);
          return replicas.includes(String(replica)) && topology.sentinelPorts.filter((p) => p !== port).every((p) => others.includes(String(p)));
        }, `sentinel ${port} to know the replica and the other sentinels`);
      }
    } catch (err) {
      await topology.stop();
      throw err;
    }
    return topology;
  }

  private startServer(port: number, primary?: number): void {
    const dir = join(this.dir, String(port));
    mkdirSync(dir, { recursive: true });
    const args = ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', ''];
    args.push('--requirepass', this.password, '--masterauth', this.password);
    if (primary !== undefined) args.push('--replicaof', '127.0.0.1', String(primary));
    this.servers.set(port, killOnExit(spawn('redis-server', args, { stdio: 'ignore' })));
  }

  private startSentinel(port: number, primary: number): void {
    // A Sentinel rewrites its configuration file as it learns the topology: one file each.
    const conf = join(this.dir, `sentinel-${port}.conf`);
    writeFileSync(
      conf,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${this.dir}`,
        `sentinel monitor ${this.name} 127.0.0.1 ${primary} 2`,
        `sentinel down-after-milliseconds ${this.name} 1000`,
        `sentinel failover-timeout ${this.name} 10000`,
        `sentinel parallel-syncs ${this.name} 1`,
        `sentinel auth-pass ${this.name} ${this.password}`,
        `requirepass ${this.sentinelPassword}`,
        `sentinel sentinel-pass ${this.sentinelPassword}`,
        '',
      ].join('\n'),
    );
    const child = killOnExit(spawn(sentinelBinary(), [conf], { stdio: 'ignore' }));
    this.sentinels.push(child);
  }

  /** The port of the server the Sentinels name primary now. */
  async primaryPort(): Promise<number> {
    const answer = (await this.cli(this.sentinelPorts[0]!, 'sentinel', 'get-master-addr-by-name', this.name)).trim().split('\n');
    return Number(answer[1]);
  }

  /** Kills one server by its PID (a crash: SIGKILL). */
  async kill(port: number): Promise<void> {
    const child = this.servers.get(port);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((ok) => child.once('exit', ok));
    child.kill('SIGKILL');
    await exited;
  }

  /**
   * Starts a killed server again on its port and folder, as a replica of `primary` (as an
   * operator would; the Sentinels would make it one too, but only 8 s after seeing it back).
   */
  async restartAsReplicaOf(port: number, primary: number): Promise<void> {
    this.startServer(port, primary);
    await this.until(async () => (await this.cli(port, 'ping')).trim() === 'PONG', `redis-server on ${port} again`);
  }

  /** Resolves once the Sentinels name a primary other than `port`, and it is one. */
  async failedOverFrom(port: number, timeoutMs = 30_000): Promise<number> {
    let now = port;
    await this.until(async () => (now = await this.primaryPort()) !== port && (await this.cli(now, 'role')).startsWith('master'), `a failover from ${port}`, timeoutMs);
    return now;
  }

  /** Resolves once `port` is a replica in sync with the primary. */
  async inSync(port: number): Promise<void> {
    await this.until(async () => (await this.cli(port, 'info', 'replication')).includes('master_link_status:up'), `${port} in sync as a replica`, 30_000);
  }

  /** Runs redis-cli against one server or Sentinel and returns its output. */
  async cli(port: number, ...args: string[]): Promise<string> {
    const password = this.sentinelPorts.includes(port) ? this.sentinelPassword : this.password;
    return (await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), '-a', password, '--no-auth-warning', ...args], { timeout: 10_000 })).stdout;
  }

  private async until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (await check().catch(() => false)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  /** Stops every server and Sentinel by PID and removes the folder. */
  async stop(): Promise<void> {
    const all = [...this.sentinels, ...this.servers.values()].filter((c) => c.exitCode === null && c.signalCode === null);
    await Promise.all(
      all.map(async (child) => {
        const exited = new Promise((ok) => child.once('exit', ok));
        child.kill('SIGTERM');
        await exited;
      }),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}
