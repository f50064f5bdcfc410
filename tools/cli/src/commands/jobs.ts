import { Command, Option } from 'commander';
import { QUEUES, type QueueKey } from '@rm/contracts';
import { print, table, type CliContext } from '../context.js';

/** Queues are named as everywhere else (`notifications-dead`), not by their key in the catalog. */
const KEY_OF_NAME = new Map<string, QueueKey>(Object.entries(QUEUES).map(([key, spec]) => [spec.name, key as QueueKey]));
const queueOption = () =>
  new Option('--queue <queue>', 'which queue')
    .choices([...KEY_OF_NAME.keys()])
    .default(QUEUES.intake.name);

export function jobsCommand(ctx: () => CliContext): Command {
  const cmd = new Command('jobs').description('jobs that failed for good');
  cmd
    .command('failed')
    .description('list failed jobs of a queue')
    .addOption(queueOption())
    .option('--limit <n>', 'how many', '50')
    .action(async (opts: { queue: string; limit: string }) => {
      const q = await ctx().queue(KEY_OF_NAME.get(opts.queue)!);
      const total = await q.getFailedCount();
      const jobs = await q.getFailed(0, Math.max(0, Number(opts.limit) - 1));
      print(`${total} failed job(s) in ${opts.queue}`);
      if (jobs.length > 0) {
        table(['JOB', 'ATTEMPTS', 'FAILED AT', 'REASON'], jobs.map((j) => [String(j.id), String(j.attemptsMade), j.finishedOn ? new Date(j.finishedOn).toISOString() : '-', j.failedReason ?? '']));
      }
    });
  cmd
    .command('retry')
    .description('move failed jobs of a queue back to waiting')
    .addOption(queueOption())
    .action(async (opts: { queue: string }) => {
      const q = await ctx().queue(KEY_OF_NAME.get(opts.queue)!);
      const count = await q.getFailedCount();
      await q.retryJobs({ state: 'failed' });
      print(`retried ${count} job(s) in ${opts.queue}`);
    });
  return cmd;
}
