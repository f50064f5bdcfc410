import { Command } from 'commander';
import { DeadLetters } from '@rm/delivery';
import { CliError, parseLimit, print, table, type CliContext } from '../context.js';

export function notificationsCommand(ctx: () => CliContext): Command {
  const cmd = new Command('notifications').description('notifications that failed for good (the dead-letter queue)');
  const deadLetters = async () => new DeadLetters(await ctx().redis(), ctx().config.KEY_PREFIX);

  cmd
    .command('dead')
    .description('list dead letters, oldest first')
    .option('--limit <n>', 'how many', '50')
    .option('--json', 'print JSON', false)
    .action(async (opts: { limit: string; json: boolean }) => {
      const limit = parseLimit(opts.limit);
      const dead = await deadLetters();
      try {
        const { total, letters } = await dead.list(limit);
        if (opts.json) return print(JSON.stringify(letters));
        print(`${total} dead notification(s)`);
        if (letters.length > 0) {
          table(
            ['JOB', 'KIND', 'ATTEMPTS', 'FAILED AT', 'REASON'],
            letters.map((l) => [l.jobId, l.name, String(l.attemptsMade), new Date(l.failedAt).toISOString(), l.failedReason]),
          );
        }
      } finally {
        await dead.close();
      }
    });

  cmd
    .command('replay [jobId]')
    .description('put a dead notification (or --all) back on the notifications queue with fresh attempts')
    .option('--all', 'replay every dead notification', false)
    .action(async (jobId: string | undefined, opts: { all: boolean }) => {
      if (opts.all === (jobId !== undefined)) throw new CliError('give either a job id or --all');
      const dead = await deadLetters();
      try {
        if (opts.all) return print(`replayed ${await dead.replayAll()} notification(s)`);
        if (!(await dead.replay(jobId!))) throw new CliError(`no dead notification ${jobId}; see notifications dead`);
        print(`replayed ${jobId}`);
      } finally {
        await dead.close();
      }
    });
  return cmd;
}
