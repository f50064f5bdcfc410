import { join } from 'node:path';
import { Command } from 'commander';
import type { MigrationProgress, MigrationReport } from '@rm/storage';
import { migrateStore, SQLITE_FILE_NAME } from '@rm/storage-factory';
import { CliError, print, type CliContext } from '../context.js';

/** At most one progress line per migration this often, besides the line saying it is done. */
const PROGRESS_EVERY_MS = 1_000;

const count = (n: number) => n.toLocaleString('en-US');

export function migrateCommand(ctx: () => CliContext): Command {
  return new Command('migrate')
    .description("applies the store's pending migrations (MongoDB: once per deployment, before the new version rolls out; resumable)")
    .action(async () => {
      const { config } = ctx();
      // SIGTERM (a Job deleted) or Ctrl-C: the page in progress commits, the next run resumes after it.
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once('SIGTERM', onSignal);
      process.once('SIGINT', onSignal);
      try {
        const report = await migrateStore(config, { onProgress: progressPrinter(), signal: stop.signal });
        if (report.pending.length > 0) throw new CliError(`stopped: ${report.pending.join(', ')} not yet run; run \`migrate\` again to resume where it stopped`);
        print(summary(report, join(config.DATA_DIR, SQLITE_FILE_NAME)));
      } finally {
        process.off('SIGTERM', onSignal);
        process.off('SIGINT', onSignal);
      }
    });
}

/** `reporter_stats_backfill: 1,500 cases` as pages commit, and `... done` at the end of each. */
function progressPrinter(): (p: MigrationProgress) => void {
  let last = { migration: '', at: 0 };
  return (p) => {
    const now = Date.now();
    if (!p.done && p.migration === last.migration && now - last.at < PROGRESS_EVERY_MS) return;
    last = { migration: p.migration, at: now };
    print(`${p.migration}: ${count(p.count)} ${p.unit}${p.done ? ', done' : ''}`);
  };
}

function summary(report: MigrationReport, sqliteFile: string): string {
  if (report.kind === 'sqlite') {
    const where = `SQLite (${sqliteFile})`;
    if (report.applied.length === 0) return `${where}: up to date (${report.known} migrations)`;
    const [first, last] = [report.applied[0]!, report.applied.at(-1)!];
    return `${where}: applied migration${first === last ? ` ${first}` : `s ${first} to ${last}`}; all ${report.known} applied`;
  }
  if (report.applied.length === 0) return `MongoDB: up to date (${report.known} migrations recorded)`;
  return `MongoDB: applied ${report.applied.join(', ')}; all ${report.known} migrations recorded`;
}
