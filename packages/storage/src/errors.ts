/** A record with that id already exists. */
export class DuplicateError extends Error {
  constructor(what: string, id: string) {
    super(`${what} ${id} already exists`);
    this.name = 'DuplicateError';
  }
}

/** Another open case about the same user exists, so this one cannot be reopened. */
export class OpenCaseConflictError extends Error {
  constructor(readonly userId: string) {
    super(`another case about user ${userId} is open`);
    this.name = 'OpenCaseConflictError';
  }
}

/** A page cursor that no read of this store returned. */
export class InvalidCursorError extends Error {
  constructor(readonly cursor: string) {
    super(`not a cursor this store returned: ${cursor}`);
    this.name = 'InvalidCursorError';
  }
}

/** The one line a process says when it finds migrations not yet run, and what to do. */
export const pendingMigrationsLine = (pending: string[]): string =>
  `MongoDB migrations not yet run: ${pending.join(', ')}; run \`npm run cli -- migrate\` (Kubernetes: the migrate Job)`;

/** A MongoDB store opened with migrations not yet recorded, where it may not wait for them (`PendingMigrations`). */
export class MigrationsPendingError extends Error {
  constructor(readonly pending: string[]) {
    super(pendingMigrationsLine(pending));
    this.name = 'MigrationsPendingError';
  }
}

/**
 * The disk under the store is full: the write was refused whole (nothing of it kept), and the
 * same write succeeds once space is freed. Jobs that meet it are retried; processes say so once a
 * minute, not once per job (docs/reliability.md, disk full).
 */
export class StoreFullError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('the disk under the store is full: nothing was written', options);
    this.name = 'StoreFullError';
  }
}
