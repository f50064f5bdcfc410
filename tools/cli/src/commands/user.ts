import { Command } from 'commander';
import { DuplicateError } from '@rm/storage';
import { CliError, print, type CliContext } from '../context.js';
import { importUsers, isNumericUserId, readUserFile } from './user-import.js';

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
      if (!isNumericUserId(opts.id)) {
        throw new CliError(`--id must be a numeric user id up to ${Number.MAX_SAFE_INTEGER} (got ${opts.id})`);
      }
      // As `user import` requires them: a chat message would otherwise read "about  (46)".
      if (opts.name.trim() === '' || opts.displayName.trim() === '') throw new CliError('--name and --display-name must not be empty');
      const store = await ctx().getStore();
      try {
        await store.addUser({ id: opts.id, name: opts.name, displayName: opts.displayName, avatar: opts.avatar ?? null });
      } catch (err) {
        if (err instanceof DuplicateError) throw new CliError(`user ${opts.id} already exists`);
        throw err;
      }
      print(`added user ${opts.id} (${opts.name})`);
    });
  cmd
    .command('import <file>')
    .description('register many players from a JSON array or a CSV file (header id,name,displayName[,avatar])')
    .action(async (file: string) => {
      const rows = readUserFile(file);
      const summary = await importUsers(await ctx().getStore(), rows);
      print(`imported ${summary.added} user(s), ${summary.existing} already present, ${summary.invalid.length} invalid`);
      for (const bad of summary.invalid.slice(0, 20)) process.stderr.write(`  row ${bad.line}: ${bad.reason}\n`);
      if (summary.invalid.length > 0) throw new CliError(`${summary.invalid.length} row(s) were not imported`);
    });
  return cmd;
}
