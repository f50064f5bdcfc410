import { Command } from 'commander';
import { parseLimit, print, table, type CliContext } from '../context.js';

export function messagesCommand(ctx: () => CliContext): Command {
  const cmd = new Command('messages').description('messages recorded by the embedded chat platform');
  cmd
    .command('list')
    .description('newest first')
    .option('--limit <n>', 'how many', '50')
    .option('--json', 'print JSON', false)
    .action(async (opts: { limit: string; json: boolean }) => {
      const messages = await (await ctx().getStore()).listMessages(parseLimit(opts.limit));
      if (opts.json) return print(JSON.stringify(messages));
      // A case message spans lines; the table shows it on one.
      table(
        ['ID', 'WHEN', 'CHANNEL', 'KIND', 'EDITED', 'CONTENT'],
        messages.map((m) => [m.id, new Date(m.createdAt).toISOString(), m.channel, m.kind, m.editedAt === null ? '-' : new Date(m.editedAt).toISOString(), m.content.replaceAll('\n', ' | ')]),
      );
    });
  return cmd;
}
