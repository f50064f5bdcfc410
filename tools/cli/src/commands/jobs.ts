import { Command, Option } from 'commander';
import { QUEUES, type QueueKey } from '@rm/contracts';
import { parseLimit, print, table, type CliContext } from '../context.js';

/** Queues are named as everywhere else (`notifications-dead`), not by their key in the catalog. */
const KEY_OF_NAME = new Map<string, QueueKey>(Object.entries(QUEUES).map(([key, spec]) => [spec.name, key as QueueKey]));
/** Without `--queue`, every queue: a job that failed for good may be on any of them (the JobsFailedForGood alert). */
const queueOption = () => new Option('--queue <queue>', 'only this queue (default: every queue)').choices([...KEY_OF_NAME.keys()]);
const queuesOf = (queue: string | undefined) => (queue === undefined ? [...KEY_OF_NAME.keys()] : [queue]);

export function jobsCommand(ctx: () => CliContext): Command {
  const cmd = new Command('jobs').description('jobs that failed for good');
  cmd
    .command('failed')
    .description('list the failed jobs of every queue, or of one')
    .addOption(queueOption())
    .option('--limit <n>', 'how many per queue', '50')
    .action(async (opts: { queue?: string; limit: string }) => {
      const limit = parseLimit(opts.limit);
      let failed = 0;
      for (const name of queuesOf(opts.queue)) {
        const q = await ctx().queue(KEY_OF_NAME.get(name)!);
        const total = await q.getFailedCount();
        failed += total;
        // A queue asked for by name is always answered; of every queue, only those holding any.
        if (total === 0 && opts.queue === undefined) continue;
        const jobs = await q.getFailed(0, limit - 1);
        print(`${total} failed job(s) in ${name}`);
        if (jobs.length > 0) {
          table(['JOB', 'ATTEMPTS', 'FAILED AT', 'REASON'], jobs.map((j) => [String(j.id), String(j.attemptsMade), j.finishedOn ? new Date(j.finishedOn).toISOString() : '-', j.failedReason ?? '']));
        }
      }
      if (opts.queue === undefined && failed === 0) print('no failed jobs in any queue');
    });
  cmd
    .command('retry')
    .description('move the failed jobs of every queue, or of one, back to waiting')
    .addOption(queueOption())
    .action(async (opts: { queue?: string }) => {
      let retried = 0;
      for (const name of queuesOf(opts.queue)) {
        const q = await ctx().queue(KEY_OF_NAME.get(name)!);
        const count = await q.getFailedCount();
        if (count === 0 && opts.queue === undefined) continue;
        await q.retryJobs({ state: 'failed' });
        print(`retried ${count} job(s) in ${name}`);
        retried += count;
      }
      if (opts.queue === undefined && retried === 0) print('no failed jobs in any queue');
    });
  return cmd;
}
