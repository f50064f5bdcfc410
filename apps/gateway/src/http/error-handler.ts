import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, type ErrorResponse, type FieldError } from '@rm/contracts';
import { randomUUID } from 'node:crypto';

/** `/answers/0/answer` → `answers.0.answer`; the root is named after where it came from. */
function fieldOf(instancePath: string, context: string | undefined, key?: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (key !== undefined) parts.push(key);
  if (parts.length > 0) return parts.join('.');
  return context === 'querystring' ? 'query' : (context ?? 'body');
}

function validationErrors(error: FastifyError & { validation: { instancePath: string; message?: string; params?: Record<string, unknown> }[] }): FieldError[] {
  const context = (error as { validationContext?: string }).validationContext;
  return error.validation.flatMap((v) => {
    const keys = v.params?.['keys'];
    if (Array.isArray(keys) && keys.length > 0) {
      return keys.map((k) => ({ field: fieldOf(v.instancePath, context, String(k)), message: 'unknown property' }));
    }
    return [{ field: fieldOf(v.instancePath, context), message: v.message ?? 'invalid value' }];
  });
}

const send = (status: number, body: ErrorResponse) => ({ status, body });

/**
 * A 500: the caller gets what is down (an AppError's message, written for callers) or nothing, and
 * a reference id; the log line under that id holds the cause, driver's words and stack included.
 */
function internal(error: unknown, onInternal: (err: unknown, ref: string) => void): { status: number; body: ErrorResponse } {
  const ref = randomUUID();
  onInternal(error, ref);
  const what = error instanceof AppError ? error.message : 'Internal error';
  return send(500, { success: false, message: `${what} (reference ${ref})` });
}

/** Where a query or path parameter came from, in the words of a message. */
const PARAMETER_KIND: Record<string, string> = { querystring: 'query parameter', params: 'path parameter', headers: 'header' };

/**
 * Section 7: `errors` is present only for a 400 of an endpoint with a request body. Elsewhere the
 * message itself names what is wrong ("Invalid query parameter page: page must be at least 1").
 */
function withoutFieldErrors(response: { status: number; body: ErrorResponse }, context: string | undefined): { status: number; body: ErrorResponse } {
  const { errors, ...rest } = response.body;
  if (!errors) return response;
  const kind = (context && PARAMETER_KIND[context]) ?? 'request';
  const message = rest.message === 'Validation failed' ? `Invalid ${errors.map((e) => `${kind} ${e.field}: ${e.message}`).join('; ')}` : rest.message;
  return { status: response.status, body: { ...rest, message } };
}

/**
 * Maps anything thrown in a request to a declared status and the section 7 shape; `hasBody` says
 * whether the route takes a request body (only then may a 400 carry `errors`).
 */
export function toErrorResponse(error: unknown, onInternal: (err: unknown, ref: string) => void, hasBody = true): { status: number; body: ErrorResponse } {
  const response = errorResponse(error, onInternal);
  return hasBody ? response : withoutFieldErrors(response, (error as { validationContext?: string })?.validationContext);
}

function errorResponse(error: unknown, onInternal: (err: unknown, ref: string) => void): { status: number; body: ErrorResponse } {
  if (error instanceof AppError) {
    if (error.status === 500) return internal(error, onInternal);
    const body: ErrorResponse = { success: false, message: error.message };
    if (error.errors) body.errors = error.errors;
    return send(error.status, body);
  }
  const fe = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(fe)) {
    return send(400, { success: false, message: 'Validation failed', errors: validationErrors(fe as never) });
  }
  if (fe?.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (fe instanceof SyntaxError && fe.statusCode === 400)) {
    return send(400, { success: false, message: 'Malformed JSON body', errors: [{ field: 'body', message: 'body is not valid JSON' }] });
  }
  if (fe?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return send(400, { success: false, message: 'Request body too large', errors: [{ field: 'body', message: 'body exceeds the size limit' }] });
  }
  if (fe?.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || fe?.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return send(400, { success: false, message: 'Request body must be JSON', errors: [{ field: 'body', message: 'send a JSON body with Content-Type: application/json' }] });
  }
  const status = typeof fe?.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    // A caller mistake Fastify caught before us (bad header, bad URL...): still a declared status.
    return send(status === 404 ? 404 : 400, { success: false, message: fe.message || 'Bad request' });
  }
  return internal(error, onInternal);
}

/** Errors thrown by a route, and those Fastify raises before routing (bad URL, over-long parameter). */
export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const onInternal = (err: unknown, ref: string) => {
    // An AppError's cause is what failed underneath (the driver's error): that is what to log.
    const cause = err instanceof Error && err.cause !== undefined ? err.cause : err;
    request.log.error({ err: cause, ref, reqId: request.id }, `request failed: ${(err as Error).message}`);
  };
  // Before routing (a bad URL) there is no route: no body schema either.
  const { status, body } = toErrorResponse(error, onInternal, Boolean(request.routeOptions?.schema?.body));
  void reply.status(status).send(body);
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => {
    void reply.status(404).send({ success: false, message: `No route ${request.method} ${request.url.split('?')[0]}` });
  });
}
