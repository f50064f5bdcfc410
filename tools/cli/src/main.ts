import { Command, CommanderError } from 'commander';
import { ConfigError } from '@rm/runtime/config';
import { CliContext, CliError } from './context.js';

// A reader that stops early (`rm queues | head -1`) closes the pipe: the rest of the output is
// dropped, and the command still runs to its end (an import is not cut short) with its own exit
// code. No stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') return;
  process.stderr.write(`error: cannot write the output: ${err.message}\n`);
  process.exitCode = 1;
});

let context: CliContext | undefined;
const ctx = () => (context ??= new CliContext());

type CommandFactory = (ctx: () => CliContext) => Command;

/**
 * Each command's module, loaded only when it is the one run: most commands need neither Redis nor
 * BullMQ nor the triage policy, and loading every module made each run cost about a second of CPU.
 * In the order `rm --help` lists them.
 */
const COMMANDS: Record<string, () => Promise<CommandFactory>> = {
  apikey: async () => (await import('./commands/apikey.js')).apikeyCommand,
  user: async () => (await import('./commands/user.js')).userCommand,
  moderator: async () => (await import('./commands/moderator.js')).moderatorCommand,
  case: async () => (await import('./commands/case.js')).caseCommand,
  messages: async () => (await import('./commands/messages.js')).messagesCommand,
  notifications: async () => (await import('./commands/notifications.js')).notificationsCommand,
  jobs: async () => (await import('./commands/jobs.js')).jobsCommand,
  queues: async () => (await import('./commands/queues.js')).queuesCommand,
  deadlines: async () => (await import('./commands/deadlines.js')).deadlinesCommand,
  sanctions: async () => (await import('./commands/sanctions.js')).sanctionsCommand,
  rules: async () => (await import('./commands/rules.js')).rulesCommand,
  evidence: async () => (await import('./commands/evidence.js')).evidenceCommand,
  transparency: async () => (await import('./commands/transparency.js')).transparencyCommand,
  migrate: async () => (await import('./commands/migrate.js')).migrateCommand,
  privacy: async () => (await import('./commands/privacy.js')).privacyCommand,
};

// Named as it is run, so a usage line pasted into a shell runs it (a bare `rm` would not be ours).
const program = new Command('npm run cli --')
  .description('Admin CLI of the report moderation service (uses the same environment as the services)')
  .exitOverride()
  .showHelpAfterError(false);
// The command named first, or all of them for help and for a name commander must refuse.
const named = process.argv[2];
const wanted = named !== undefined && Object.hasOwn(COMMANDS, named) ? [named] : Object.keys(COMMANDS);
for (const name of wanted) program.addCommand((await COMMANDS[name]!())(ctx));

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
