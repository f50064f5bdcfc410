import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killOnExit, ROOT } from '../harness.js';

/**
 * How this process can own a mount namespace: as root, a mount namespace alone; otherwise in a
 * user namespace of its own as well (`unshare -r`, unprivileged where the kernel allows it), where
 * it is root enough to mount a tmpfs. Either way the host's mounts are never touched.
 */
const WAYS = [
  { unshare: ['-m'], nsenter: ['-m'] },
  { unshare: ['-r', '-m'], nsenter: ['-U', '-m', '--preserve-credentials'] },
];
type Way = (typeof WAYS)[number];
let found: Way | string | undefined;

function way(): Way | string {
  if (found !== undefined) return found;
  if (process.platform !== 'linux') return (found = 'mount namespaces are Linux only');
  const refusals: string[] = [];
  for (const w of WAYS) {
    const probe = spawnSync('unshare', [...w.unshare, '--propagation', 'private', 'sh', '-c', 'mount -t tmpfs -o size=1m tmpfs "$1"', 'sh', tmpdir()], { encoding: 'utf8', timeout: 10_000 });
    if (probe.error) return (found = `unshare could not run (${probe.error.message})`);
    if (probe.status === 0) return (found = w);
    refusals.push(`unshare ${w.unshare.join(' ')}: ${(probe.stderr || `exit ${probe.status}`).trim()}`);
  }
  return (found = `a tmpfs cannot be mounted in a private mount namespace, as root nor in a user namespace of its own (${refusals.join('; ')})`);
}

/** Why a small disk cannot be made here (no `unshare`, mounts refused as root and in a user namespace), or undefined when it can. */
export function smallDiskUnavailable(): string | undefined {
  const w = way();
  return typeof w === 'string' ? w : undefined;
}

/**
 * A folder backed by a tmpfs of `bytes` in a mount namespace of its own (and a user namespace when
 * not root), held open by a `sleep` (the holder). Processes started through `enter` (nsenter into
 * that namespace) see the tmpfs at `dir`; everyone else sees the empty folder under it. The test
 * reaches the tmpfs from outside through the holder's root (`/proc/<pid>/root`) to fill it and
 * free it. Stopped by PID only.
 */
export class SmallDisk {
  private constructor(
    readonly dir: string,
    private readonly holder: ChildProcess,
    private readonly way: Way,
  ) {}

  static async start(bytes: number): Promise<SmallDisk> {
    const w = way();
    if (typeof w === 'string') throw new Error(`no small disk here: ${w}`);
    const dir = mkdtempSync(join(tmpdir(), 'rm-small-disk-'));
    const holder = killOnExit(
      spawn('unshare', [...w.unshare, '--propagation', 'private', 'sh', '-c', 'mount -t tmpfs -o size="$2" tmpfs "$1" && echo mounted && exec sleep infinity', 'sh', dir, String(bytes)], {
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    let said = '';
    await new Promise<void>((ok, fail) => {
      holder.stdout!.on('data', (d) => (said += String(d)).includes('mounted') && ok());
      holder.stderr!.on('data', (d) => (said += String(d)));
      holder.once('exit', (code) => fail(new Error(`the small disk could not be mounted (exit ${code}): ${said.trim()}`)));
    });
    return new SmallDisk(dir, holder, w);
  }

  /**
   * The command that runs a program inside the namespace, to put before it; in the project's root
   * (entering a mount namespace moves to its `/`).
   */
  get enter(): string[] {
    return ['nsenter', '-t', String(this.holder.pid), ...this.way.nsenter, `--wd=${ROOT}`, '--'];
  }

  /**
   * Runs `node -e script ...args` inside the namespace and answers what it printed. SQLite cannot
   * open a file through `reach`: it resolves the `/proc/<pid>/root` link to `/`, the host's root.
   */
  node(script: string, args: string[] = []): string {
    const [command, ...prefix] = this.enter;
    const ran = spawnSync(command!, [...prefix, process.execPath, '-e', script, ...args], { encoding: 'utf8', timeout: 60_000 });
    if (ran.status !== 0) throw new Error(`node in the small disk's namespace failed (${ran.status}): ${ran.stderr}`);
    return ran.stdout;
  }

  /** `path` inside the tmpfs, as the test process reaches it (for plain file operations). */
  reach(...path: string[]): string {
    return join(`/proc/${this.holder.pid}/root`, this.dir, ...path);
  }

  /** Bytes still free on the tmpfs. */
  free(): number {
    const s = statfsSync(this.reach());
    return s.bavail * s.bsize;
  }

  /**
   * Writes a filler file until the tmpfs has only `leave` bytes free (none by default: until it
   * refuses another byte, ENOSPC).
   */
  fill(leave = 0): void {
    const fd = openSync(this.reach('filler'), 'w');
    try {
      for (const size of [1 << 20, 1 << 12]) {
        const chunk = Buffer.alloc(size);
        while (this.free() - size >= leave) {
          try {
            writeSync(fd, chunk);
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
            throw err;
          }
        }
      }
    } finally {
      closeSync(fd);
    }
  }

  /** Deletes the filler: its space is free again at once. */
  unfill(): void {
    unlinkSync(this.reach('filler'));
  }

  /** Ends the holder; the tmpfs goes with the last process in its namespace. */
  async stop(): Promise<void> {
    const holder = this.holder;
    if (holder.exitCode === null && holder.signalCode === null) {
      const exited = new Promise((ok) => holder.once('exit', ok));
      holder.kill('SIGKILL');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
