import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { Command } from 'commander';
import { periodBound, TransparencyQuery } from '@rm/contracts';
import type { StatementOfReasons } from '@rm/contracts';
import { WARNING_KIND } from '@rm/triage';
import { CliError, type CliContext } from '../context.js';
import { toDsaStatement } from '../transparency/dsa-statement.js';

/** Statements read per page: never the whole period in memory. */
export const EXPORT_PAGE = 500;
/** A progress line on stderr every this many statements read. */
const PROGRESS_EVERY = 5_000;

/** Writes a line, waiting when the stream's buffer is full (a large export to a slow pipe or disk). */
async function writeLine(out: NodeJS.WritableStream, line: string): Promise<void> {
  if (!out.write(`${line}\n`)) await once(out, 'drain');
}

export function transparencyCommand(ctx: () => CliContext): Command {
  const cmd = new Command('transparency').description('DSA transparency: statements of reasons for the EU Transparency Database');
  cmd
    .command('export')
    .description("write the period's statements of reasons as JSON lines in the EU Transparency Database's fields (docs/transparency.md)")
    .requiredOption('--from <date>', 'start of the period: a date (2026-01-01) or an RFC 3339 date-time')
    .requiredOption('--to <date>', 'end of the period: a date (its whole day included) or an RFC 3339 date-time (exclusive)')
    .option('--out <file>', 'write to this file instead of stdout')
    .action(async (opts: { from: string; to: string; out?: string }) => {
      const parsed = TransparencyQuery.safeParse({ from: opts.from, to: opts.to });
      if (!parsed.success) throw new CliError(parsed.error.issues.map((i) => `--${String(i.path[0])}: ${i.message}`).join('; '));
      const from = periodBound(parsed.data.from, 'from');
      const to = periodBound(parsed.data.to, 'to');
      if (to <= from) throw new CliError('--to must be after --from');
      const store = await ctx().getStore();
      let file: WriteStream | undefined;
      if (opts.out !== undefined) {
        file = createWriteStream(opts.out, { flags: 'w' });
        await once(file, 'open').catch((err: Error) => {
          throw new CliError(`cannot write ${opts.out}: ${err.message}`);
        });
      }
      const out = file ?? process.stdout;
      let read = 0;
      let written = 0;
      let warnings = 0;
      for (let cursor: string | null = null, first = true; first || cursor !== null; first = false) {
        const page = await store.statementsIn({ from, to }, cursor, EXPORT_PAGE);
        for (const s of page.sanctions) {
          read++;
          const line = toDsaStatement(s as typeof s & { statement: StatementOfReasons }, WARNING_KIND);
          if (line === null) warnings++;
          else {
            await writeLine(out, JSON.stringify(line));
            written++;
          }
          if (read % PROGRESS_EVERY === 0) process.stderr.write(`transparency export: ${read} statements read, ${written} written\n`);
        }
        cursor = page.cursor;
      }
      if (file) {
        file.end();
        await once(file, 'finish');
      }
      process.stderr.write(
        `transparency export: ${written} statement(s) written for ${new Date(from).toISOString()} to ${new Date(to).toISOString()}` +
          `${warnings > 0 ? `; ${warnings} warning(s) left out (a warning restricts nothing)` : ''}\n`,
      );
    });
  return cmd;
}
