import { PlatformError, PlatformRateLimitedError } from './errors.js';
import { exchange, HttpTimeoutError, type HttpReply } from './http-exchange.js';
import { recordOutboundCall, SpanKind, withSpan, type OutboundTarget } from '@rm/runtime';

export interface HttpTarget {
  /** Names the platform in errors: "the chat platform did not answer within 3000 ms". */
  platform: string;
  /** Its `target` label on `rm_platform_calls_total`. */
  metric: OutboundTarget;
  /** Every call is aborted after this long (the body included). */
  timeoutMs: number;
  headers?: Record<string, string>;
  /** A 429 asking to wait at most this long is waited out in place; longer ones are thrown. */
  maxInlineRetryAfterMs: number;
}

export interface HttpAnswer {
  status: number;
  /** The parsed JSON body, or null when there is none or it is not JSON. */
  body: unknown;
}

/** How many 429s in a row one call waits out before giving up. */
const MAX_INLINE_WAITS = 3;
const DEFAULT_RETRY_AFTER_MS = 1000;

/** `retry-after` is seconds (possibly fractional) or an HTTP date. */
export function parseRetryAfter(header: string | null, now = Date.now()): number {
  if (header === null || header.trim() === '') return DEFAULT_RETRY_AFTER_MS;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds * 1000));
  const date = Date.parse(header);
  return Number.isNaN(date) ? DEFAULT_RETRY_AFTER_MS : Math.max(0, date - now);
}

/**
 * One HTTP call to a platform: a timeout on every call, 429 + retry-after
 * honoured, and network failures turned into a PlatformError that says what happened. Any other
 * status is returned for the caller to judge.
 */
export function callPlatform(target: HttpTarget, method: string, url: string, payload?: unknown): Promise<HttpAnswer> {
  // A client span per call: the target's kind and the method, never its URL (it may hold ids of other systems or tokens).
  return withSpan(`${target.metric} ${method}`, { kind: SpanKind.CLIENT, attributes: { 'rm.platform': target.metric, 'http.request.method': method } }, () => exchangeWithRetries(target, method, url, payload));
}

async function exchangeWithRetries(target: HttpTarget, method: string, url: string, payload?: unknown): Promise<HttpAnswer> {
  for (let waits = 0; ; waits++) {
    let answer: HttpReply;
    try {
      answer = await exchange(url, {
        method,
        headers: { accept: 'application/json', ...(payload !== undefined && { 'content-type': 'application/json' }), ...target.headers },
        ...(payload !== undefined && { body: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
        timeoutMs: target.timeoutMs,
      });
    } catch (err) {
      recordOutboundCall(target.metric, 'unreachable');
      if (err instanceof HttpTimeoutError) throw new PlatformError(target.platform, `did not answer within ${target.timeoutMs} ms`, true);
      throw new PlatformError(target.platform, `could not be reached (${(err as { code?: string }).code ?? (err as Error).message})`, true);
    }
    recordOutboundCall(target.metric, answer.status === 429 ? 'rate_limited' : isOk(answer.status) ? 'ok' : 'error');
    if (answer.status === 429) {
      const retryAfterMs = parseRetryAfter(answer.header('retry-after'));
      if (waits >= MAX_INLINE_WAITS || retryAfterMs > target.maxInlineRetryAfterMs) throw new PlatformRateLimitedError(target.platform, retryAfterMs);
      await new Promise((resolve) => setTimeout(resolve, retryAfterMs));
      continue;
    }
    return { status: answer.status, body: parseJson(answer.text) };
  }
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

/** A non-2xx answer as an error: 5xx and 408 may pass, other 4xx need someone to fix something. */
export function statusError(platform: string, what: string, status: number): PlatformError {
  const retryable = status >= 500 || status === 408;
  return new PlatformError(platform, `answered ${status} to ${what}`, retryable, status);
}

export const isOk = (status: number) => status >= 200 && status < 300;

/**
 * Whether an id can travel as one path segment. URL parsers resolve `.` and `..` (percent-encoded
 * too: `%2e` is a dot to them), so no escaping keeps `..` from addressing the parent path, and an
 * empty segment would name the collection itself.
 */
export function isAddressable(segment: string): boolean {
  return segment !== '' && segment !== '.' && segment !== '..';
}

/** An id that no path segment can carry (see isAddressable). */
export class UnaddressableIdError extends Error {
  constructor(segment: string) {
    super(`"${segment}" cannot be sent as a URL path segment`);
    this.name = 'UnaddressableIdError';
  }
}

/**
 * Joins a base URL (with or without a trailing slash) and path segments, each escaped as one
 * segment (`/`, `?`, `#` and `%` included); throws UnaddressableIdError for `.`, `..` and ''.
 */
export function urlOf(base: string, ...segments: string[]): string {
  const bad = segments.find((s) => !isAddressable(s));
  if (bad !== undefined) throw new UnaddressableIdError(bad);
  return `${base.replace(/\/+$/, '')}/${segments.map(encodeURIComponent).join('/')}`;
}
