import { Command } from 'commander';
import { DuplicateError } from '@rm/storage';
import { CliError, print, type CliContext } from '../context.js';

export function userCommand(ctx: () => CliContext): Command {
  const cmd = new Command('user').description('players in the embedded game platform user directory');
  cmd
    .command('add')
    .description('register a player')
    .requiredOption('--id <id>', 'numeric game platform user id')
    .requiredOption('--name <name>', 'user name')
    .requiredOption('--display-name <displayName>', 'display name')
    .option('--avatar <url>', 'avatar URL')
    .action(async (opts: { id: string; name: string; displayName: string; avatar?: string }) => {
      if (!/^\d+$/.test(opts.id) || !Number.isSafeInteger(Number(opts.id))) {
        throw new CliError(`--id must be a numeric user id up to ${Number.MAX_SAFE_INTEGER} (got ${opts.id})`);
      }
      const store = await ctx().getStore();
      try {
        await store.addUser({ id: opts.id, name: opts.name, displayName: opts.displayName, avatar: opts.avatar ?? null });
      } catch (err) {
        if (err instanceof DuplicateError) throw new CliError(`user ${opts.id} already exists`);
        throw err;
      }
      print(`added user ${opts.id} (${opts.name})`);
    });
  return cmd;
}
