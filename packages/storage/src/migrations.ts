/**
 * Running a store's migrations (`cli migrate`, docs/scaling.md#migrations). SQLite migrates its
 * file at every open; MongoDB's migrations page through history and run once per deployment.
 */

/**
 * What opening a MongoDB store does when a migration is not yet recorded: `wait` says so in one
 * line and waits until it is (another process runs `cli migrate`), `run` runs them first (one
 * machine: the dev launcher, Docker Compose), `fail` throws MigrationsPendingError (the CLI).
 */
export type PendingMigrations = 'wait' | 'run' | 'fail';

/** After each page a migration commits: its items covered so far (over every run), and whether it is now recorded. */
export interface MigrationProgress {
  migration: string;
  /** What its pages count: `cases`, `bans`, `sanctions`. */
  unit: string;
  count: number;
  done: boolean;
}

export interface MigrateOptions {
  onProgress?: (progress: MigrationProgress) => void;
  /** Items per page, each page one transaction (default 500; MongoDB only). */
  pageSize?: number;
  /** Aborted: the run stops after the page in progress commits; the next run resumes there (MongoDB only). */
  signal?: AbortSignal;
}

export interface MigrationReport {
  kind: 'sqlite' | 'mongodb';
  /** What this run applied, in order: SQLite's migration numbers, MongoDB's names. */
  applied: string[];
  /** Still not recorded: a run stopped by its signal. */
  pending: string[];
  /** How many migrations the store has. */
  known: number;
}
