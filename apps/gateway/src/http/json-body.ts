import type { FastifyInstance } from 'fastify';
import { AppError } from '@rm/contracts';

/** Cheap tests on the raw text: only a body that passes one is walked. */
const MAY_HOLD_FORBIDDEN_KEY = /"(?:__proto__|constructor)"/;
const MAY_HOLD_SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * JSON request bodies, parsed as Fastify does, with two differences:
 * - a `__proto__` key, or a `constructor` holding `prototype`, anywhere is a 400 that names its
 *   path (Fastify's own refusal said "not valid JSON" of a valid body);
 * - a lone UTF-16 surrogate escape (`"\ud800"`) becomes U+FFFD, as invalid UTF-8 bytes already do:
 *   stored as sent, it made every later answer holding it unreadable to strict JSON parsers.
 */
export function installJsonBody(app: FastifyInstance): void {
  // 'ignore': JSON.parse's own result, checked below instead.
  const parse = app.getDefaultJsonParser('ignore', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    parse(request, text, (err: Error | null, value?: unknown) => {
      if (err) return done(err, undefined);
      const forbidden = MAY_HOLD_FORBIDDEN_KEY.test(text) ? forbiddenKeyPath(value, []) : null;
      if (forbidden !== null) {
        return done(new AppError('VALIDATION_FAILED', 'Validation failed', [{ field: forbidden, message: 'forbidden property name' }]), undefined);
      }
      done(null, MAY_HOLD_SURROGATE_ESCAPE.test(text) ? wellFormed(value) : value);
    });
  });
}

function forbiddenKeyPath(value: unknown, path: string[]): string | null {
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, child] of Object.entries(value)) {
    const at = [...path, key];
    if (key === '__proto__' || (key === 'constructor' && typeof child === 'object' && child !== null && Object.hasOwn(child, 'prototype'))) {
      return at.join('.');
    }
    const inner = forbiddenKeyPath(child, at);
    if (inner !== null) return inner;
  }
  return null;
}

function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(LONE_SURROGATE, '\uFFFD');
  if (Array.isArray(value)) return value.map(wellFormed);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [wellFormed(k) as string, wellFormed(v)]));
}
