import { Command, CommanderError } from 'commander';
import { ConfigError } from '@rm/runtime';
import { apikeyCommand } from './commands/apikey.js';
import { caseCommand } from './commands/case.js';
import { deadlinesCommand } from './commands/deadlines.js';
import { evidenceCommand } from './commands/evidence.js';
import { jobsCommand } from './commands/jobs.js';
import { messagesCommand } from './commands/messages.js';
import { notificationsCommand } from './commands/notifications.js';
import { moderatorCommand } from './commands/moderator.js';
import { queuesCommand } from './commands/queues.js';
import { sanctionsCommand } from './commands/sanctions.js';
import { rulesCommand } from './commands/rules.js';
import { transparencyCommand } from './commands/transparency.js';
import { userCommand } from './commands/user.js';
import { CliContext, CliError } from './context.js';

let context: CliContext | undefined;
const ctx = () => (context ??= new CliContext());

const program = new Command('rm')
  .description('Admin CLI of the report moderation service (uses the same environment as the services)')
  .exitOverride()
  .showHelpAfterError(false)
  .addCommand(apikeyCommand(ctx))
  .addCommand(userCommand(ctx))
  .addCommand(moderatorCommand(ctx))
  .addCommand(caseCommand(ctx))
  .addCommand(messagesCommand(ctx))
  .addCommand(notificationsCommand(ctx))
  .addCommand(jobsCommand(ctx))
  .addCommand(queuesCommand(ctx))
  .addCommand(deadlinesCommand(ctx))
  .addCommand(sanctionsCommand(ctx))
  .addCommand(rulesCommand(ctx))
  .addCommand(evidenceCommand(ctx))
  .addCommand(transparencyCommand(ctx));

let code = 0;
try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // commander already printed its message (or help, which exits 0).
    code = err.exitCode;
  } else if (err instanceof ConfigError) {
    for (const line of err.lines) process.stderr.write(`error: invalid configuration: ${line}\n`);
    code = 1;
  } else if (err instanceof CliError) {
    process.stderr.write(`error: ${err.message}\n`);
    code = 1;
  } else {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    code = 1;
  }
} finally {
  await context?.close().catch(() => undefined);
}
process.exitCode = code;
