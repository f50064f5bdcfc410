import { Command } from 'commander';
import { DuplicateError } from '@rm/storage';
import { CliError, print, table, type CliContext } from '../context.js';

export function moderatorCommand(ctx: () => CliContext): Command {
  const cmd = new Command('moderator').description('moderators who may claim and decide cases');
  cmd
    .command('add')
    .description('register a moderator (their chat platform id)')
    .requiredOption('--id <id>', 'moderator id on the chat platform')
    .requiredOption('--username <username>', 'moderator user name')
    .action(async (opts: { id: string; username: string }) => {
      if (opts.id.trim() === '' || opts.username.trim() === '') throw new CliError('--id and --username must not be empty');
      const store = await ctx().getStore();
      try {
        await store.addModerator({ id: opts.id, username: opts.username, createdAt: Date.now() });
      } catch (err) {
        if (err instanceof DuplicateError) throw new CliError(`moderator ${opts.id} already exists`);
        throw err;
      }
      print(`added moderator ${opts.id} (${opts.username})`);
    });
  cmd
    .command('list')
    .description('list moderators')
    .action(async () => {
      const mods = await (await ctx().getStore()).listModerators();
      table(['ID', 'USERNAME', 'ADDED'], mods.map((m) => [m.id, m.username, new Date(m.createdAt).toISOString()]));
    });
  return cmd;
}
