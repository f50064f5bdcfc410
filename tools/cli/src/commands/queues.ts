import { Command, Option } from 'commander';
import { QUEUES, type QueueKey } from '@rm/contracts';
import { CliError, print, table, type CliContext } from '../context.js';

const STATES = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;

async function snapshot(ctx: CliContext): Promise<string[][]> {
  const rows: string[][] = [];
  for (const key of Object.keys(QUEUES) as QueueKey[]) {
    const q = await ctx.queue(key);
    const [counts, workers] = await Promise.all([q.getJobCounts(...STATES), q.getWorkersCount()]);
    rows.push([QUEUES[key].name, ...STATES.map((s) => String(counts[s] ?? 0)), String(workers)]);
  }
  return rows;
}

export function queuesCommand(ctx: () => CliContext): Command {
  return new Command('queues')
    .description('depth of every queue: waiting, active, delayed, failed, completed, and workers')
    .option('--watch', 'refresh until Ctrl-C', false)
    .addOption(new Option('--interval <seconds>', 'refresh interval with --watch').default('2'))
    .action(async (opts: { watch: boolean; interval: string }) => {
      const interval = Number(opts.interval);
      if (!(interval >= 0.2)) throw new CliError(`--interval must be a number of seconds, at least 0.2 (got ${opts.interval})`);
      const headers = ['QUEUE', ...STATES.map((s) => s.toUpperCase()), 'WORKERS'];
      if (!opts.watch) return table(headers, await snapshot(ctx()));
      let stop = false;
      process.once('SIGINT', () => (stop = true));
      while (!stop) {
        const rows = await snapshot(ctx());
        if (process.stdout.isTTY) process.stdout.write('\x1b[2J\x1b[H');
        print(new Date().toISOString());
        table(headers, rows);
        await new Promise((r) => setTimeout(r, interval * 1000));
      }
    });
}
