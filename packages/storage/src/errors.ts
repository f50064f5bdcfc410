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
