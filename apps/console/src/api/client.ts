import createClient, { type Middleware } from 'openapi-fetch';
import { authHeaders, sessionEnded } from '../session/session';
import type { paths } from './schema.gen';

/**
 * The console's only way to the server: a client typed by the gateway's OpenAPI document
 * (generated at build time), on the same origin, with the signed-in key, or the session cookie and
 * its CSRF token, on every call. A 401 means the sign-in ended: the console shows sign-in again.
 */
const signedIn: Middleware = {
  onRequest({ request }) {
    for (const [name, value] of Object.entries(authHeaders(request.method))) request.headers.set(name, value);
    return request;
  },
  onResponse({ request, response }) {
    if (response.status === 401 && !new URL(request.url).pathname.startsWith('/auth/')) sessionEnded();
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: window.location.origin });
api.use(signedIn);

/** The error shape every endpoint answers with (spec section 7). */
export interface ApiError {
  success: false;
  message: string;
  errors?: { field: string; message: string }[];
}

/** The API's own words for a failed call, or a line saying the server could not be reached. */
export function errorMessage(error: unknown, response?: Response): string {
  const e = error as Partial<ApiError> | undefined;
  if (e && typeof e.message === 'string') {
    const fields = (e.errors ?? []).map((f) => `${f.field}: ${f.message}`).join('; ');
    return fields ? `${e.message} (${fields})` : e.message;
  }
  if (response) return `The server answered ${response.status}`;
  return 'The server could not be reached';
}
