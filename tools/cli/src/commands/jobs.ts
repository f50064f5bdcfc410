import { Command, Option } from 'commander';
import type { Queue } from 'bullmq';
import { QUEUES, type QueueKey } from '@rm/contracts';
import { parseLimit, print, table, type CliContext } from '../context.js';

/** Queues are named as everywhere else (`notifications-dead`), not by their key in the catalog. */
const KEY_OF_NAME = new Map<string, QueueKey>(Object.entries(QUEUES).map(([key, spec]) => [spec.name, key as QueueKey]));
/** Without `--queue`, every queue: a job that failed for good may be on any of them (the JobsFailedForGood alert). */
const queueOption = () => new Option('--queue <queue>', 'only this queue (default: every queue)').choices([...KEY_OF_NAME.keys()]);

/** The queues to answer for, with their failed counts: a queue named is always answered; of every queue, only those holding any. */
async function* withFailed(ctx: () => CliContext, named: string | undefined): AsyncGenerator<{ name: string; q: Queue; failed: number }> {
  for (const name of named === undefined ? KEY_OF_NAME.keys() : [named]) {
    const q = await ctx().queue(KEY_OF_NAME.get(name)!);
    const failed = await q.getFailedCount();
    if (failed > 0 || named !== undefined) yield { name, q, failed };
  }
}

export function jobsCommand(ctx: () => CliContext): Command {
  const cmd = new Command('jobs').description('jobs that failed for good');
  cmd
    .command('failed')
    .description('list the failed jobs of every queue, or of one')
    .addOption(queueOption())
    .option('--limit <n>', 'how many per queue', '50')
    .action(async (opts: { queue?: string; limit: string }) => {
      const limit = parseLimit(opts.limit);
      let answered = false;
      for await (const { name, q, failed } of withFailed(ctx, opts.queue)) {
        answered = true;
        const jobs = await q.getFailed(0, limit - 1);
        print(`${failed} failed job(s) in ${name}`);
        if (jobs.length > 0) {
          table(['JOB', 'ATTEMPTS', 'FAILED AT', 'REASON'], jobs.map((j) => [String(j.id), String(j.attemptsMade), j.finishedOn ? new Date(j.finishedOn).toISOString() : '-', j.failedReason ?? '']));
        }
      }
      if (!answered) print('no failed jobs in any queue');
    });
  cmd
    .command('retry')
    .description('move the failed jobs of every queue, or of one, back to waiting')
    .addOption(queueOption())
    .action(async (opts: { queue?: string }) => {
      let answered = false;
      for await (const { name, q, failed } of withFailed(ctx, opts.queue)) {
        answered = true;
        await q.retryJobs({ state: 'failed' });
        print(`retried ${failed} job(s) in ${name}`);
      }
      if (!answered) print('no failed jobs in any queue');
    });
  return cmd;
}
