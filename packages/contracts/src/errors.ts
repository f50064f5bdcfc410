/** Every failure the service can report, and the HTTP status each one maps to. */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'BAD_REQUEST',
  'INVALID_STATE',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'CLAIMED_BY_OTHER',
  'NOT_FOUND',
  'CONFLICT',
  'RATE_LIMITED',
  'DAILY_LIMIT',
  'INTERNAL',
  'UNAVAILABLE',
  'TIMEOUT',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export type HttpErrorStatus = 400 | 401 | 403 | 404 | 409 | 429 | 500;

/** Exhaustive: adding a code without a status fails to compile. */
export function statusOf(code: ErrorCode): HttpErrorStatus {
  switch (code) {
    case 'VALIDATION_FAILED':
    case 'BAD_REQUEST':
    case 'INVALID_STATE':
      return 400;
    case 'UNAUTHORIZED':
      return 401;
    case 'FORBIDDEN':
    case 'CLAIMED_BY_OTHER':
      return 403;
    case 'NOT_FOUND':
      return 404;
    // An idempotency key already used for a request with other fields (POST /v1/sanctions).
    case 'CONFLICT':
      return 409;
    case 'RATE_LIMITED':
    case 'DAILY_LIMIT':
      return 429;
    case 'INTERNAL':
    case 'UNAVAILABLE':
    case 'TIMEOUT':
      return 500;
  }
}

export interface FieldError {
  field: string;
  message: string;
}

/** A failure meant for the caller: its message is safe to show. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly errors: FieldError[] | undefined;

  constructor(code: ErrorCode, message: string, errors?: FieldError[]) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.errors = errors;
  }

  get status(): HttpErrorStatus {
    return statusOf(this.code);
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** An AppError as plain data, so it can travel through a queue and be rebuilt. */
export interface SerializedAppError {
  code: ErrorCode;
  message: string;
}

export function serializeAppError(error: AppError): SerializedAppError {
  return { code: error.code, message: error.message };
}
