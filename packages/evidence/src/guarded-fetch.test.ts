import { createHash } from 'node:crypto';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowList, parsePrefixes } from './address-guard.js';
import { CaptureError, guardedFetch, type FetcherDeps } from './guarded-fetch.js';

// One gzip member of no bytes (20 bytes): many of them decode to nothing.
const EMPTY_GZIP = zlib.gzipSync(Buffer.alloc(0));
// A 1x1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const LIMITS = { maxBytes: 64 * 1024, timeoutMs: 2_000, maxRedirects: 3 };

let server: http.Server;
let raw: net.Server;
let port: number;
let rawPort: number;
const hostsSeen: string[] = [];
const encodingsAsked: string[] = [];

/**
 * No test may open a connection to anything but loopback, even with a broken guard: the connect
 * step records and refuses every other address, and afterEach fails the test if one was tried.
 */
const violations: string[] = [];
const beforeConnect = (address: string) => {
  if (address !== '127.0.0.1' && address !== '::1') {
    violations.push(address);
    throw new Error(`test refuses to connect to ${address}`);
  }
};
/** Names resolve only through this table: the system resolver is never asked. */
const resolverCalls: string[] = [];
const names: Record<string, string[]> = {
  'private.test': ['10.1.2.3'],
  'mixed.test': ['93.184.216.34', '10.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'local.test': ['127.0.0.1'],
  'public.test': ['93.184.216.34'],
};
const resolve = async (hostname: string) => {
  resolverCalls.push(hostname);
  const found = names[hostname];
  if (!found) throw new Error(`ENOTFOUND ${hostname}`);
  return found;
};
const deps = (allow = `127.0.0.1:${port}`): FetcherDeps => ({ resolve, allow: parseAllowList(allow), beforeConnect });

async function failure(url: string, d: FetcherDeps = deps(), limits = LIMITS): Promise<CaptureError> {
  const err = await guardedFetch(url, limits, d).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CaptureError);
  return err as CaptureError;
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hostsSeen.push(req.headers.host ?? '');
    encodingsAsked.push(req.headers['accept-encoding'] ?? '');
    const url = new URL(req.url ?? '/', 'http://x');
    const to = url.searchParams.get('to');
    switch (url.pathname) {
      case '/png':
        res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
        return;
      case '/redirect':
        res.writeHead(302, { location: to ?? '/png' }).end();
        return;
      case '/hops': {
        const n = Number(url.searchParams.get('n'));
        res.writeHead(301, { location: n > 0 ? `/hops?n=${n - 1}` : '/png' }).end();
        return;
      }
      case '/html':
        res.writeHead(200, { 'content-type': 'text/html' }).end('<script>alert(1)</script>');
        return;
      case '/fake-png':
        res.writeHead(200, { 'content-type': 'image/png' }).end('<html><script>alert(1)</script></html>');
        return;
      case '/huge-chunked': {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(16 * 1024, 'a');
        let sent = 0;
        const pump = () => {
          while (sent < LIMITS.maxBytes * 4) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => undefined);
        pump();
        return;
      }
      case '/gzip-bomb':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(zlib.gzipSync(Buffer.alloc(LIMITS.maxBytes * 50, 'a')));
        return;
      case '/gzip-nothing':
        // 3 MiB on the wire, 48 times the cap, that decode to no byte at all.
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
        res.on('error', () => undefined);
        res.end(Buffer.concat(Array.from({ length: Math.ceil((3 * 1024 * 1024) / EMPTY_GZIP.length) }, () => EMPTY_GZIP)));
        return;
      case '/gzip-text':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-encoding': 'gzip' }).end(zlib.gzipSync('hello evidence'));
        return;
      case '/slow':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('a');
        res.on('error', () => undefined);
        // Never ends: the fetcher's time cap must end it.
        return;
      case '/status':
        res.writeHead(Number(url.searchParams.get('code'))).end();
        return;
      default:
        res.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
  // A server whose Content-Length lies: it announces 10 bytes and keeps sending without one.
  raw = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n');
      const chunk = Buffer.alloc(16 * 1024, 'b');
      let sent = 0;
      const pump = () => {
        while (sent < LIMITS.maxBytes * 4 && !socket.destroyed) {
          sent += chunk.length;
          if (!socket.write(chunk)) return void socket.once('drain', pump);
        }
        socket.end();
      };
      pump();
    });
  });
  await new Promise<void>((done) => raw.listen(0, '127.0.0.1', done));
  rawPort = (raw.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
  await new Promise((done) => raw.close(done));
});

afterEach(() => {
  // Emptied first, so one test's violation fails that test only.
  const tried = violations.splice(0);
  resolverCalls.length = 0;
  expect(tried).toEqual([]);
});

describe('guardedFetch: what it keeps', () => {
  it('keeps an allowed image with its type, size and SHA-256', async () => {
    const got = await guardedFetch(`http://127.0.0.1:${port}/png`, LIMITS, deps());
    expect(got.bytes.equals(PNG)).toBe(true);
    expect(got).toMatchObject({ contentType: 'image/png', size: PNG.length, sha256: createHash('sha256').update(PNG).digest('hex') });
  });

  it('follows up to 3 redirects, each checked again', async () => {
    const got = await guardedFetch(`http://127.0.0.1:${port}/hops?n=2`, LIMITS, deps());
    expect(got.contentType).toBe('image/png');
    expect((await failure(`http://127.0.0.1:${port}/hops?n=3`)).reason).toBe('too_many_redirects');
  });

  it('asks for the body as it is (identity)', async () => {
    encodingsAsked.length = 0;
    await guardedFetch(`http://127.0.0.1:${port}/png`, LIMITS, deps());
    expect(encodingsAsked).toEqual(['identity']);
  });

  it('connects to the address it checked: a name is resolved once per hop, and the Host header keeps the name', async () => {
    hostsSeen.length = 0;
    const got = await guardedFetch(`http://local.test:${port}/png`, LIMITS, deps(`local.test:${port}`));
    expect(got.sha256).toBe(createHash('sha256').update(PNG).digest('hex'));
    expect(resolverCalls).toEqual(['local.test']);
    expect(hostsSeen).toEqual([`local.test:${port}`]);
  });
});

describe('guardedFetch: refused addresses (no connection is ever opened)', () => {
  const literals = [
    'http://127.0.0.1:1/',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://017700000001/',
    'http://0.0.0.0/',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.100.100.200/',
    'http://192.0.0.192/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://[::1]/',
    'http://[::]/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://[fd00:ec2::254]/',
    'http://[ff02::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:a00:1]/',
    'http://[::ffff:169.254.169.254]/',
    'http://[64:ff9b::a00:1]/',
    'http://[2002:a00:1::]/',
    // IPv4-compatible IPv6 (::/96), which ipaddr.js leaves unclassed: 127.0.0.1, the metadata address, 10.0.0.1.
    'http://[::7f00:1]/',
    'http://[::a9fe:a9fe]/',
    'http://[::a00:1]/',
    'http://[2001:db8::1]/',
  ];
  it.each(literals)('refuses the IP literal %s', async (url) => {
    expect((await failure(url)).reason).toBe('refused_address');
  });

  it.each(['private.test', 'mixed.test', 'metadata.test', 'mapped.test'])('refuses a name that resolves to a refused address (%s)', async (name) => {
    expect((await failure(`http://${name}/x`)).reason).toBe('refused_address');
  });

  it('refuses a name resolving to 127.0.0.1 when only 127.0.0.1:port is admitted', async () => {
    expect((await failure(`http://local.test:${port}/png`)).reason).toBe('refused_address');
  });

  it('refuses an address in a prefix refused by configuration (EVIDENCE_REFUSED_PREFIXES)', async () => {
    const refusing = { ...deps(), refused: parsePrefixes('198.51.100.0/24, 93.184.216.0/24') };
    expect((await failure('http://public.test/x', refusing)).reason).toBe('refused_address');
    expect((await failure('http://93.184.216.40/x', refusing)).reason).toBe('refused_address');
  });

  it('refuses loopback without the test allow-list', async () => {
    expect((await failure(`http://127.0.0.1:${port}/png`, deps(''))).reason).toBe('refused_address');
  });

  it.each([
    ['a private IP literal', 'http://10.0.0.1/x'],
    ['the metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['an IPv6 loopback literal', 'http://[::1]:PORT/png'],
    ['loopback on a port not admitted', 'http://127.0.0.1:1/png'],
    ['a name resolving to a private address', 'http://private.test/x'],
    ['a name resolving to 127.0.0.1', 'http://local.test:PORT/png'],
  ])('refuses a redirect to %s', async (_what, to) => {
    // The table is built before the server has its port.
    const target = to.replace('PORT', String(port));
    expect((await failure(`http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(target)}`)).reason).toBe('refused_address');
  });

  it.each(['ftp://example.test/x', 'file:///etc/passwd', 'gopher://127.0.0.1/', 'http://user:pw@127.0.0.1/', 'not a url'])('refuses %s as a URL', async (url) => {
    expect((await failure(url)).reason).toBe('bad_url');
  });

  it('refuses a redirect to another scheme', async () => {
    expect((await failure(`http://127.0.0.1:${port}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`)).reason).toBe('bad_url');
  });
});

describe('guardedFetch: caps', () => {
  it('stops a body over the size cap sent without a Content-Length', async () => {
    expect((await failure(`http://127.0.0.1:${port}/huge-chunked`)).reason).toBe('too_large');
  });

  it('counts the bytes received, not what the server announced', async () => {
    expect((await failure(`http://127.0.0.1:${rawPort}/`, deps(`127.0.0.1:${rawPort}`))).reason).toBe('too_large');
  });

  it.each(['/gzip-nothing', '/gzip-bomb', '/gzip-text'])('refuses an encoded body unread, whatever it decodes to (%s)', async (path) => {
    const err = await failure(`http://127.0.0.1:${port}${path}`);
    expect(err.reason).toBe('type_not_allowed');
    expect(err.message).toMatch(/content encoding gzip/);
  });

  it('keeps a lookup within the time cap: a resolver that takes 3 s ends a 500 ms capture at 500 ms', async () => {
    const slow: FetcherDeps = { ...deps(), resolve: () => new Promise((done) => setTimeout(() => done(['93.184.216.34']), 3_000)) };
    const started = Date.now();
    const err = await failure('http://slow-dns.test/x', slow, { ...LIMITS, timeoutMs: 500 });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(err.reason).toBe('timed_out');
    expect(err.retryable).toBe(true);
  });

  it('gives up a body that does not finish within the time cap, as retryable', async () => {
    const err = await failure(`http://127.0.0.1:${port}/slow`, deps(), { ...LIMITS, timeoutMs: 300 });
    expect(err.reason).toBe('timed_out');
    expect(err.retryable).toBe(true);
  });

  it('refuses a content type outside the allow-list', async () => {
    expect((await failure(`http://127.0.0.1:${port}/html`)).reason).toBe('type_not_allowed');
  });

  it('refuses bytes that are not the type they claim', async () => {
    expect((await failure(`http://127.0.0.1:${port}/fake-png`)).reason).toBe('type_mismatch');
  });

  it.each([
    [404, false],
    [410, false],
    [503, true],
    [429, true],
  ])('records HTTP %i, retryable: %s', async (code, retryable) => {
    const err = await failure(`http://127.0.0.1:${port}/status?code=${code}`);
    expect(err.reason).toBe('http_status');
    expect(err.retryable).toBe(retryable);
  });
});
