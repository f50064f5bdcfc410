import type { Queue } from 'bullmq';
import type { QueueKey } from '@rm/contracts';
import type { Redis } from '@rm/runtime';
import { commonConfig, loadConfig } from '@rm/runtime/config';
import type { Store } from '@rm/storage';
import { createStore } from '@rm/storage-factory';

/** A clear one-line failure: printed without a stack trace, exit code 1. */
export class CliError extends Error {}

/** A `--limit` value: a whole number, at least 1. */
export function parseLimit(raw: string): number {
  const limit = Number(raw);
  if (!Number.isSafeInteger(limit) || limit < 1) throw new CliError(`--limit must be a whole number, at least 1 (got ${raw})`);
  return limit;
}

/** Lazily opened connections, so `apikey list` never needs Redis and `jobs failed` never opens SQLite twice. */
export class CliContext {
  readonly config = loadConfig(commonConfig);
  private store?: Promise<Store>;
  private connection?: Promise<Redis>;
  private readonly queues = new Map<QueueKey, Queue>();

  /** The store; on MongoDB with migrations not yet run, a command stops with the one line saying so rather than wait (only `migrate` runs them, unless MIGRATIONS=run). */
  getStore(): Promise<Store> {
    return (this.store ??= createStore({ ...this.config, MIGRATIONS: this.config.MIGRATIONS === 'run' ? 'run' : 'fail' }));
  }

  /** One connection however many callers ask at once; ioredis and BullMQ load only for commands that touch queues. */
  redis(): Promise<Redis> {
    return (this.connection ??= import('./redis-connection.js')
      .then(({ connectRedis }) => connectRedis(this.config, 5_000))
      .catch(() => {
        throw new CliError(`Redis at ${this.config.REDIS_URL} did not answer; is the system started (npm start)?`);
      }));
  }

  async queue(key: QueueKey): Promise<Queue> {
    let q = this.queues.get(key);
    if (!q) {
      const { openQueue } = await import('./redis-connection.js');
      q = openQueue(key, await this.redis(), this.config.KEY_PREFIX);
      this.queues.set(key, q);
    }
    return q;
  }

  async close(): Promise<void> {
    for (const q of this.queues.values()) await q.close();
    if (this.connection) (await this.connection.catch(() => undefined))?.disconnect();
    if (this.store) await (await this.store).close();
  }
}

export function print(line = ''): void {
  process.stdout.write(`${line}\n`);
}

/** Prints rows as aligned columns. */
export function table(headers: string[], rows: string[][]): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  print(line(headers));
  for (const row of rows) print(line(row));
}
