import http from 'node:http';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorShape, System, type Key } from './harness.js';

// The upload route outside the API-key hook: what one gateway takes in at once, how much of it
// stays in memory, and where the links it hands out point. Gateways alone: nothing here is cited.

const MIB = 1024 * 1024;
const SIZE = 8 * MIB;
const IN_FLIGHT = 10;

let sys: System;
let submitter: Key;

beforeAll(async () => {
  sys = await System.start({
    apps: ['gateway'],
    env: { EVIDENCE_MAX_BYTES: String(10 * MIB), EVIDENCE_UPLOADS_IN_FLIGHT: String(IN_FLIGHT) },
  });
  submitter = await sys.createKey(['--permission', 'reports.submit_report']);
}, 60_000);
afterAll(() => sys?.stop());

const rssMiB = (pid: number) => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const ask = async (system: System, headers: Record<string, string> = {}) =>
  system.request('POST', '/v1/evidence/uploads', { auth: submitter.auth, body: { contentType: 'text/plain', size: SIZE }, headers });

/** A PUT of SIZE bytes sent but its last, answered once `finish` is called. */
function heldPut(url: string) {
  const req = http.request(url, { method: 'PUT', headers: { 'content-type': 'text/plain', 'content-length': SIZE } });
  const answer = new Promise<number>((ok, fail) => req.on('response', (res) => (res.resume(), ok(res.statusCode!))).on('error', fail));
  const sent = new Promise<void>((ok) => req.write(Buffer.alloc(SIZE - 1, 'x'), () => ok()));
  return { sent, answer, finish: () => req.end('x') };
}

describe('uploads in flight', () => {
  it(`streams each body to the store (memory stays flat under ${IN_FLIGHT} uploads of 8 MiB held open) and refuses one more with 429`, async () => {
    const pid = sys.pidOf('gateway')!;
    const urls = await Promise.all(Array.from({ length: IN_FLIGHT + 1 }, async () => (await ask(sys)).body.uploadUrl as string));
    const before = rssMiB(pid);
    const held = urls.slice(0, IN_FLIGHT).map(heldPut);
    await Promise.all(held.map((h) => h.sent));
    // Every body but its last byte has reached the gateway (a buffered copy would be 80 MiB).
    await new Promise((r) => setTimeout(r, 500));
    const grown = rssMiB(pid) - before;
    expect(grown).toBeLessThan(40);

    const extra = await fetch(urls[IN_FLIGHT]!, { method: 'PUT', body: 'x'.repeat(16), headers: { 'content-type': 'text/plain' } });
    expect(extra.status).toBe(429);
    expect(isErrorShape(await extra.json())).toBe(true);

    held.forEach((h) => h.finish());
    expect(await Promise.all(held.map((h) => h.answer))).toEqual(held.map(() => 200));
  }, 60_000);
});

describe('links behind a proxy', () => {
  const forwarded = { 'x-forwarded-host': 'moderation.example.com', 'x-forwarded-proto': 'https' };

  it("ignores a client's own X-Forwarded-* headers when no proxy is trusted", async () => {
    const res = await ask(sys, forwarded);
    expect(res.status).toBe(200);
    expect(res.body.uploadUrl.startsWith(`${sys.baseUrl}/v1/evidence/uploads/`)).toBe(true);
  });

  it('believes them from a trusted proxy, and PUBLIC_BASE_URL over both', async () => {
    const proxied = await System.start({ apps: ['gateway'], env: { TRUSTED_PROXIES: '127.0.0.1' } });
    const based = await System.start({ apps: ['gateway'], env: { TRUSTED_PROXIES: 'loopback', PUBLIC_BASE_URL: 'https://mod.example.org/api/' } });
    try {
      const key = await proxied.createKey(['--permission', 'reports.submit_report']);
      const res = await proxied.request('POST', '/v1/evidence/uploads', { auth: key.auth, body: { contentType: 'text/plain', size: 10 }, headers: forwarded });
      expect(res.body.uploadUrl).toMatch(/^https:\/\/moderation\.example\.com\/v1\/evidence\/uploads\//);
      const key2 = await based.createKey(['--permission', 'reports.submit_report']);
      const res2 = await based.request('POST', '/v1/evidence/uploads', { auth: key2.auth, body: { contentType: 'text/plain', size: 10 }, headers: forwarded });
      expect(res2.body.uploadUrl).toMatch(/^https:\/\/mod\.example\.org\/api\/v1\/evidence\/uploads\//);
    } finally {
      await Promise.all([proxied.stop(), based.stop()]);
    }
  }, 60_000);

  it('refuses a bad TRUSTED_PROXIES or PUBLIC_BASE_URL at start, naming it', async () => {
    await expect(System.start({ apps: ['gateway'], env: { TRUSTED_PROXIES: '127.0.0.1/99' } })).rejects.toThrow(/TRUSTED_PROXIES/);
    await expect(System.start({ apps: ['gateway'], env: { PUBLIC_BASE_URL: 'ftp://x' } })).rejects.toThrow(/PUBLIC_BASE_URL/);
  }, 60_000);
});
