import { setTimeout as sleep } from 'node:timers/promises';
import type { ClientSession, MongoClient } from 'mongodb';
import { MigrationsPendingError, pendingMigrationsLine, type MigrateOptions, type MigrationReport, type PendingMigrations } from '@rm/storage';
import { boundModeratorsPage, reporterStatsPage, reportOutcomesPage } from './backfills.js';
import type { Collections } from './collections.js';
import type { MigrationDoc } from './documents.js';
import { isDuplicateKey } from './driver-errors.js';
import type { MigrationPage } from './migration-pages.js';
import { sanctionsFromBans } from './sanctions.js';
import { runTransaction } from './transactions.js';

interface MongoMigration {
  name: string;
  /** What a page counts, for the progress lines. */
  unit: string;
  page: MigrationPage;
}

/** The migration recording that reporter credibility was counted from past decisions. */
export const REPORTER_STATS_BACKFILL = 'reporter_stats_backfill';
/** The migration recording that the reports decided before outcomes existed got theirs. */
export const REPORT_OUTCOMES_BACKFILL = 'report_outcomes_backfill';

/**
 * The MongoDB data migrations, in the order they run: the one list `cli migrate` applies and every
 * process checks at start (docs/scaling.md#migrations). Each is recorded in `migrations` under
 * its name once done; a shipped name never changes. Append only. (Indexes are not migrations:
 * ensureSchema creates them at every start, idempotently.)
 */
export const MONGO_MIGRATIONS: readonly MongoMigration[] = [
  { name: 'sanctions_from_bans', unit: 'bans', page: sanctionsFromBans },
  { name: REPORTER_STATS_BACKFILL, unit: 'cases', page: reporterStatsPage },
  { name: REPORT_OUTCOMES_BACKFILL, unit: 'cases', page: reportOutcomesPage },
  { name: 'bound_moderators_backfill', unit: 'sanctions', page: boundModeratorsPage },
];

/** Items per page, one transaction each: far inside MongoDB's 60 s transaction lifetime. */
export const MIGRATION_PAGE = 500;

/** How often a process waiting for the migrations looks again. */
export const MIGRATIONS_CHECK_MS = 5_000;

/** Starts of a page lost to another run's concurrent first write of a document before giving up. */
const MAX_RACES = 5;

/** The migrations not yet recorded as done, in order. */
export async function pendingMigrations(c: Collections): Promise<string[]> {
  const names = MONGO_MIGRATIONS.map((m) => m.name);
  const done = await c.migrations.find({ _id: { $in: names }, doneAt: { $exists: true } }, { projection: { _id: 1 } }).toArray();
  const recorded = new Set(done.map((d) => d._id));
  return names.filter((n) => !recorded.has(n));
}

/**
 * Applies the migrations not yet recorded, in order, a page per transaction. Each page's writes
 * and its progress (the cursor its next page starts after, in the migration's document) commit
 * together, so a run killed at any point resumes at the first page not committed, and runs at
 * once (several Jobs, several processes with MIGRATIONS=run) conflict on that document: one page
 * commits, the other is retried from the new cursor. The last page records the migration done.
 */
export async function runMigrations(client: MongoClient, c: Collections, options: MigrateOptions = {}): Promise<MigrationReport> {
  // At least 1: MongoDB reads a limit of 0 as none, which would make the whole history one page.
  const limit = Math.max(1, Math.floor(options.pageSize ?? MIGRATION_PAGE));
  const applied: string[] = [];
  for (const migration of MONGO_MIGRATIONS) {
    for (;;) {
      if (options.signal?.aborted) return { kind: 'mongodb', applied, pending: await pendingMigrations(c), known: MONGO_MIGRATIONS.length };
      const step = await onePage(client, c, migration, limit);
      if (step === null) break; // recorded already, by an earlier run or one running beside this one
      options.onProgress?.({ migration: migration.name, unit: migration.unit, count: step.count, done: step.done });
      if (step.done) {
        applied.push(migration.name);
        break;
      }
    }
  }
  return { kind: 'mongodb', applied, pending: [], known: MONGO_MIGRATIONS.length };
}

async function onePage(client: MongoClient, c: Collections, migration: MongoMigration, limit: number): Promise<{ count: number; done: boolean } | null> {
  for (let race = 1; ; race++) {
    try {
      return await runTransaction(client, (s) => pageIn(c, s, migration, limit));
    } catch (err) {
      // Another run inserted this migration's document, or a reporter's, after our snapshot: read again.
      if (!isDuplicateKey(err) || race >= MAX_RACES) throw err;
    }
  }
}

async function pageIn(c: Collections, session: ClientSession, migration: MongoMigration, limit: number): Promise<{ count: number; done: boolean } | null> {
  const doc = await c.migrations.findOne({ _id: migration.name }, { session });
  if (doc?.doneAt !== undefined) return null;
  const page = await migration.page(c, session, doc?.cursor ?? '', limit);
  const count = (doc?.count ?? 0) + page.count;
  const done = page.count < limit || page.last === null;
  const record: MigrationDoc = done ? { _id: migration.name, doneAt: Date.now(), count } : { _id: migration.name, cursor: page.last!, count };
  await c.migrations.replaceOne({ _id: migration.name }, record, { upsert: true, session });
  return { count, done };
}

/**
 * At start: with every migration recorded, nothing. Otherwise, by `mode`: run them (`run`), throw
 * (`fail`), or say so in one line and look again every MIGRATIONS_CHECK_MS until another process
 * (`cli migrate`, the Kubernetes Job) has recorded them all (`wait`).
 */
export async function awaitMigrations(client: MongoClient, c: Collections, mode: PendingMigrations, say: (line: string) => void): Promise<void> {
  let pending = await pendingMigrations(c);
  if (pending.length === 0) return;
  if (mode === 'fail') throw new MigrationsPendingError(pending);
  if (mode === 'run') {
    say(`MongoDB migrations not yet run: ${pending.join(', ')}; running them now (MIGRATIONS=run)`);
    await runMigrations(client, c);
    return;
  }
  say(`${pendingMigrationsLine(pending)}; waiting`);
  while (pending.length > 0) {
    await sleep(MIGRATIONS_CHECK_MS);
    pending = await pendingMigrations(c);
  }
}
