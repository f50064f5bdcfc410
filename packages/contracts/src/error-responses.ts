import { ErrorResponse } from './http.js';

/** Section 7's shape without `errors`: what every status but a body endpoint's 400 answers. */
export const PlainErrorResponse = ErrorResponse.omit({ errors: true });

/**
 * The error statuses of section 7 for a route's `response` schema: `errors` (validation errors,
 * field by field) is declared only for a 400 of an endpoint with a request body, as the spec says.
 */
export function errorResponses(hasBody: boolean) {
  return {
    400: hasBody ? ErrorResponse : PlainErrorResponse,
    401: PlainErrorResponse,
    403: PlainErrorResponse,
    404: PlainErrorResponse,
    429: PlainErrorResponse,
    500: PlainErrorResponse,
  };
}
