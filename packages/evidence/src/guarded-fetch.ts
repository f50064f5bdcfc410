import { createHash } from 'node:crypto';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { hostPortOf, isPublicAddress, type Prefix } from './address-guard.js';
import { ALLOWED_CONTENT_TYPES, bytesMatchType, essenceOf, isAllowedContentType, type AllowedContentType } from './content-types.js';
import { SpanKind, withSpan } from '@rm/runtime';

/** Why a capture failed: stored with the evidence item (docs/evidence.md lists them). */
export const CAPTURE_FAILURES = [
  'bad_url',
  'refused_address',
  'too_many_redirects',
  'too_large',
  'timed_out',
  'http_status',
  'type_not_allowed',
  'type_mismatch',
  'network',
  // Uploads (s3Upload): the citation is not one we signed or has expired, the upload is not
  // there, it is not the size it was declared with, or not the bytes its PUT stored.
  'bad_upload',
  'upload_missing',
  'size_mismatch',
  'upload_changed',
  // The job failed for good on an error of ours (storage, blob store), not the fetch's.
  'internal',
] as const;
export type CaptureFailure = (typeof CAPTURE_FAILURES)[number];

export class CaptureError extends Error {
  constructor(
    readonly reason: CaptureFailure,
    message: string,
    /** Whether another attempt later can succeed (a timeout, a 503), or never will (a refused address). */
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'CaptureError';
  }
}

export interface FetchLimits {
  /** Bytes kept at most, counted as they arrive, whatever Content-Length says. */
  maxBytes: number;
  /** The whole capture, every hop and the body included. */
  timeoutMs: number;
  maxRedirects: number;
}

export interface FetcherDeps {
  /**
   * Every address a name resolves to; called once per hop, and the connection goes to what it
   * returned. The signal aborts at the capture's time cap, which ends the wait either way.
   */
  resolve: (hostname: string, signal: AbortSignal) => Promise<string[]>;
  /** `host:port` pairs admitted although their address is not public: for tests only (EVIDENCE_FETCH_ALLOW). */
  allow: ReadonlySet<string>;
  /** Prefixes refused on top of the built-in ranges (EVIDENCE_REFUSED_PREFIXES). */
  refused?: readonly Prefix[];
  /**
   * Called with the address and port right before a socket is opened to them. Tests make it throw
   * for any address that is not loopback, so a broken guard fails the test without a connection.
   */
  beforeConnect?: (address: string, port: number) => void;
}

export interface Fetched {
  bytes: Buffer;
  contentType: AllowedContentType;
  sha256: string;
  size: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The statuses another attempt may answer differently (docs/evidence.md); any other is final. */
export const isRetryableStatus = (status: number) => status >= 500 || status === 429 || status === 408;

/** `work`'s outcome, or a rejection as soon as `signal` aborts: a resolver that ignores the signal cannot outlast the cap. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new Error('aborted'));
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

function parseTarget(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = base ? new URL(raw, base) : new URL(raw);
  } catch {
    throw new CaptureError('bad_url', 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CaptureError('bad_url', `scheme ${url.protocol} is not http or https`);
  if (url.username || url.password) throw new CaptureError('bad_url', 'URLs with credentials are not fetched');
  return url;
}

/**
 * Resolves the URL's host once and checks every address it has: one that is not public refuses
 * the whole name (a name with one private address among public ones is refused too). An IP
 * literal is checked as it is. The address returned is the one connected to: nothing resolves the
 * name again, so a DNS answer that changes between check and use changes nothing.
 */
async function pin(url: URL, deps: FetcherDeps, signal: AbortSignal): Promise<{ address: string; port: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await untilAborted(deps.resolve(host, signal), signal);
    } catch (err) {
      throw new CaptureError('network', `could not resolve ${host}: ${(err as Error).message}`, true);
    }
  }
  if (addresses.length === 0) throw new CaptureError('network', `${host} has no address`, true);
  if (!deps.allow.has(hostPortOf(url))) {
    const refused = addresses.find((a) => !isPublicAddress(a, deps.refused));
    if (refused !== undefined) throw new CaptureError('refused_address', `${host} resolves to ${refused}, which is not a public address`);
  }
  return { address: addresses[0]!, port };
}

function request(url: URL, target: { address: string; port: number }, signal: AbortSignal, deps: FetcherDeps): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  deps.beforeConnect?.(target.address, target.port);
  return new Promise((resolve, reject) => {
    const options: https.RequestOptions = {
      host: target.address,
      port: target.port,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { host: url.host, accept: ALLOWED_CONTENT_TYPES.join(', '), 'accept-encoding': 'identity', 'user-agent': 'report-moderation-evidence/1' },
      agent: false,
      signal,
      // The host is an IP, so Node never looks it up; should that change, nothing is resolved behind our back.
      lookup: (_hostname, _options, callback) => (callback as (err: Error) => void)(new Error('the evidence fetcher connects only to checked addresses')),
      // TLS is verified against the URL's name, not the address connected to.
      ...(url.protocol === 'https:' && !isIP(host) && { servername: host }),
    };
    const req = (url.protocol === 'https:' ? https : http).request(options, resolve);
    req.on('error', reject);
    req.end();
  });
}

/** Reads the body as it came, failing as soon as its bytes pass the cap. */
async function readCapped(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw new CaptureError('too_large', `the body passed the cap of ${maxBytes} bytes`);
      chunks.push(chunk as Buffer);
    }
  } finally {
    res.destroy();
  }
  return Buffer.concat(chunks, size);
}

/**
 * Fetches a player-supplied URL for keeping, guarded against server-side request forgery
 * (docs/evidence.md): http(s) only, every hop's address resolved once, checked and connected to,
 * redirects followed by hand and checked the same way, the kept bytes and the total time capped,
 * only allowed content types whose bytes match them.
 */
export function guardedFetch(raw: string, limits: FetchLimits, deps: FetcherDeps): Promise<Fetched> {
  // A client span without the URL: it is a player's, and may carry anything.
  return withSpan('evidence fetch', { kind: SpanKind.CLIENT }, () => fetchGuarded(raw, limits, deps));
}

async function fetchGuarded(raw: string, limits: FetchLimits, deps: FetcherDeps): Promise<Fetched> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, limits.timeoutMs);
  try {
    let url = parseTarget(raw);
    for (let hop = 0; ; hop += 1) {
      const target = await pin(url, deps, controller.signal);
      if (timedOut) throw new CaptureError('timed_out', `no answer within ${limits.timeoutMs} ms`, true);
      const res = await request(url, target, controller.signal, deps);
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status)) {
        res.destroy();
        const location = res.headers.location;
        if (location === undefined) throw new CaptureError('http_status', `HTTP ${status} without a Location`);
        if (hop >= limits.maxRedirects) throw new CaptureError('too_many_redirects', `more than ${limits.maxRedirects} redirects`);
        url = parseTarget(location, url);
        continue;
      }
      if (status !== 200) {
        res.destroy();
        throw new CaptureError('http_status', `HTTP ${status}`, isRetryableStatus(status));
      }
      const contentType = essenceOf(res.headers['content-type']);
      if (!isAllowedContentType(contentType)) {
        res.destroy();
        throw new CaptureError('type_not_allowed', `content type ${contentType ?? '(none)'} is not kept`);
      }
      // We ask for identity. An encoded body is refused unread: no decoder runs on a stranger's
      // bytes, and the cap counts what arrives, which then is what we keep.
      const encoding = (res.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
      if (encoding !== 'identity' && encoding !== '') {
        res.destroy();
        throw new CaptureError('type_not_allowed', `content encoding ${encoding} is not accepted (identity was asked for)`);
      }
      const bytes = await readCapped(res, limits.maxBytes);
      if (!bytesMatchType(contentType, bytes)) throw new CaptureError('type_mismatch', `the bytes are not ${contentType}`);
      return { bytes, contentType, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
    }
  } catch (err) {
    if (err instanceof CaptureError) {
      if (timedOut && err.reason !== 'too_large') throw new CaptureError('timed_out', `no complete answer within ${limits.timeoutMs} ms`, true);
      throw err;
    }
    if (timedOut) throw new CaptureError('timed_out', `no complete answer within ${limits.timeoutMs} ms`, true);
    throw new CaptureError('network', (err as Error).message, true);
  } finally {
    clearTimeout(timer);
  }
}
