import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadTokens } from '@rm/evidence';
import { isErrorShape, report, System, type Key } from './harness.js';
import { TEST_POLICY, writePolicy } from './triage-policy.js';

// Evidence through the real processes: a local HTTP server on 127.0.0.1 (admitted by the test-only
// EVIDENCE_FETCH_ALLOW) serves images, redirects, slow and huge bodies. Refusals are tested here
// only with loopback targets (a name resolving to 127.0.0.1, ::1, a port not admitted): every
// private, metadata and mapped address is refused in packages/evidence's unit tests, which never
// connect beyond loopback.

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const MAX_BYTES = 64 * 1024;
const SECRET = 'e2e-evidence-token-secret-0123456789abcdef';

let server: http.Server;
let port: number;
let sys: System;
let submitter: Key;
let viewer: Key;
let admin: Key;
let nextUser = 9100;
let nextReporter = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    res.on('error', () => undefined);
    const url = new URL(req.url ?? '/', 'http://x');
    switch (url.pathname) {
      case '/shot.png':
        res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
        return;
      case '/redirect':
        res.writeHead(302, { location: url.searchParams.get('to') ?? '/shot.png' }).end();
        return;
      case '/huge': {
        res.writeHead(200, { 'content-type': 'text/plain' });
        let sent = 0;
        const pump = () => {
          while (sent < MAX_BYTES * 4 && !res.destroyed) {
            sent += 8192;
            if (!res.write(Buffer.alloc(8192, 'x'))) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
        return;
      }
      case '/slow':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('still coming');
        return;
      case '/page.html':
        res.writeHead(200, { 'content-type': 'text/html' }).end('<script>alert(1)</script>');
        return;
      case '/note.txt':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('chat log: gg ez');
        return;
      default:
        res.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
  sys = await System.start({
    env: {
      MAX_REPORTS_PER_DAY: '1000',
      EVIDENCE_FETCH_ALLOW: `127.0.0.1:${port}`,
      EVIDENCE_MAX_BYTES: String(MAX_BYTES),
      EVIDENCE_FETCH_TIMEOUT_MS: '1500',
      EVIDENCE_TOKEN_SECRET: SECRET,
    },
  });
  [submitter, viewer, admin] = await Promise.all([sys.createKey(['--permission', 'reports.submit_report']), sys.createKey(['--permission', 'reports.view_reports']), sys.createKey(['--admin'])]);
  await sys.addModerator('m1', 'alice');
});
afterAll(async () => {
  await sys?.stop();
  server?.closeAllConnections();
  await new Promise((done) => server?.close(done));
});

const local = (path: string) => `http://127.0.0.1:${port}${path}`;

/** Submits one report with this evidence about a new user; returns the report id and its case once every kept item settled. */
async function submitAndSettle(evidence: Record<string, unknown>[], timeoutMs = 30_000): Promise<{ reportId: string; caseId: string; report: any; userId: string }> {
  const userId = String(nextUser++);
  await sys.addUser(userId);
  const res = await sys.post('/v1/reports/new', submitter.auth, report(userId, `ev-${nextReporter++}`, { evidence }));
  expect(res.status).toBe(200);
  const reportId = res.body.id as string;
  let found: any;
  let caseId = '';
  let lastList: any;
  await sys.waitFor(
    async () => {
      const list = await sys.get('/v1/cases?limit=100&state=open', viewer.auth);
      lastList = list;
      const c = list.body.cases?.find((x: any) => x.userId === userId);
      if (!c) return false;
      caseId = c.caseId;
      found = (await sys.get(`/v1/cases/${c.caseId}`, viewer.auth)).body.case?.reports?.find((r: any) => r.id === reportId);
      return found !== undefined && found.evidenceItems.every((i: any) => i.state !== 'pending');
    },
    timeoutMs,
    `the evidence of report ${reportId} settled`,
  ).catch((err) => {
    console.log(JSON.stringify(lastList?.body).slice(0, 500), JSON.stringify(found), sys.logsOf('evidence').slice(-2000));
    throw err;
  });
  return { reportId, caseId, report: found, userId };
}

describe('capture at intake (createEvidence: true)', () => {
  it('keeps the bytes of an image (directly and through a redirect) under their SHA-256; items not asked for are not kept', async () => {
    const { reportId, report: r } = await submitAndSettle([
      { url: local('/shot.png'), type: 'url', createEvidence: true },
      { url: local('/shot.png'), type: 'url' },
      { url: local(`/redirect?to=${encodeURIComponent(local('/shot.png'))}`), type: 'url', createEvidence: true },
      { url: local('/note.txt'), type: 'url', createEvidence: true },
    ]);
    expect(r.evidence).toHaveLength(4);
    expect(r.evidenceItems.map((i: any) => [i.index, i.state, i.sha256, i.size, i.contentType])).toEqual([
      [0, 'captured', sha(PNG), PNG.length, 'image/png'],
      [2, 'captured', sha(PNG), PNG.length, 'image/png'],
      [3, 'captured', sha(Buffer.from('chat log: gg ez')), 15, 'text/plain'],
    ]);
    expect(r.evidenceItems[0].copyUrl).toBe(`/v1/reports/${reportId}/evidence/0`);

    const copy = await fetch(`${sys.baseUrl}/v1/reports/${reportId}/evidence/0`, { headers: { authorization: viewer.auth } });
    expect(copy.status).toBe(200);
    const bytes = Buffer.from(await copy.arrayBuffer());
    expect(bytes.equals(PNG)).toBe(true);
    expect(copy.headers.get('content-type')).toBe('image/png');
    expect(copy.headers.get('x-content-type-options')).toBe('nosniff');
    expect(copy.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(copy.headers.get('content-disposition')).toBe('inline');

    const text = await fetch(`${sys.baseUrl}/v1/reports/${reportId}/evidence/3`, { headers: { authorization: viewer.auth } });
    expect(await text.text()).toBe('chat log: gg ez');
    expect(text.headers.get('content-disposition')).toMatch(/^attachment/);

    // A submitter's key may not read kept copies; an item never kept is a 404 in the spec's shape.
    expect((await sys.get(`/v1/reports/${reportId}/evidence/0`, submitter.auth)).status).toBe(403);
    const none = await sys.get(`/v1/reports/${reportId}/evidence/1`, viewer.auth);
    expect(none.status).toBe(404);
    expect(isErrorShape(none.body)).toBe(true);
  });

  it('refuses loopback reached any way the allow-list does not name, and records why', async () => {
    const { report: r } = await submitAndSettle([
      // A DNS name (localhost) resolving to 127.0.0.1: only 127.0.0.1:port is admitted.
      { url: `http://localhost:${port}/shot.png`, type: 'url', createEvidence: true },
      { url: local(`/redirect?to=${encodeURIComponent(`http://[::1]:${port}/shot.png`)}`), type: 'url', createEvidence: true },
      { url: local(`/redirect?to=${encodeURIComponent('http://127.0.0.1:1/shot.png')}`), type: 'url', createEvidence: true },
      { url: 'file:///etc/passwd', type: 'url', createEvidence: true },
    ]);
    expect(r.evidenceItems.map((i: any) => [i.index, i.state, i.failure, i.sha256])).toEqual([
      [0, 'failed', 'refused_address', null],
      [1, 'failed', 'refused_address', null],
      [2, 'failed', 'refused_address', null],
      [3, 'failed', 'bad_url', null],
    ]);
  });

  it('holds the caps: size (no Content-Length), time, content type, HTTP status', async () => {
    const { report: r } = await submitAndSettle(
      [
        { url: local('/huge'), type: 'url', createEvidence: true },
        { url: local('/page.html'), type: 'url', createEvidence: true },
        { url: local('/missing.png'), type: 'url', createEvidence: true },
        { url: local('/slow'), type: 'url', createEvidence: true },
      ],
      60_000,
    );
    expect(r.evidenceItems.map((i: any) => [i.index, i.state, i.failure])).toEqual([
      [0, 'failed', 'too_large'],
      [1, 'failed', 'type_not_allowed'],
      [2, 'failed', 'http_status'],
      [3, 'failed', 'timed_out'],
    ]);
  }, 90_000);
});

describe('uploads through the gateway (no S3 store)', () => {
  const start = (body: unknown) => sys.post('/v1/evidence/uploads', submitter.auth, body);
  // A copy of a Buffer as a plain Uint8Array: the DOM's fetch types (the console's page code needs them) take no Buffer.
  const put = (url: string, body: Buffer | string, type = 'image/png') =>
    fetch(url, { method: 'PUT', body: typeof body === 'string' ? body : new Uint8Array(body), headers: { 'content-type': type } });

  it('round-trips: ask, PUT, cite with type s3Upload, kept with its hash', async () => {
    const asked = await start({ contentType: 'image/png', size: PNG.length });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ success: true, method: 'PUT' });
    expect(asked.body.uploadUrl).toMatch(new RegExp(`^${sys.baseUrl}/v1/evidence/uploads/`));
    expect(asked.body.evidenceUrl).toMatch(/^evidence-upload:/);
    expect(asked.body.expiresAt).toBeGreaterThan(Date.now());
    const sent = await put(asked.body.uploadUrl, PNG);
    expect(sent.status).toBe(200);
    const { reportId, report: r } = await submitAndSettle([{ url: asked.body.evidenceUrl, type: 's3Upload' }]);
    expect(r.evidenceItems).toMatchObject([{ index: 0, state: 'captured', sha256: sha(PNG), size: PNG.length, contentType: 'image/png' }]);
    const copy = await fetch(`${sys.baseUrl}/v1/reports/${reportId}/evidence/0`, { headers: { authorization: viewer.auth } });
    expect(Buffer.from(await copy.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('refuses forged and expired tokens with 403, bodies over the declared size with a 400 naming it', async () => {
    const asked = await start({ contentType: 'image/png', size: PNG.length });
    const url = new URL(asked.body.uploadUrl);
    const forged = `${url.origin}${url.pathname.slice(0, -3)}${url.pathname.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    const forgedRes = await put(forged, PNG);
    expect(forgedRes.status).toBe(403);
    expect(isErrorShape(await forgedRes.json())).toBe(true);
    const expired = uploadTokens(SECRET).issue({ uploadId: '00000000-0000-4000-8000-000000000000', contentType: 'image/png', size: PNG.length, expiresAt: Date.now() - 1000, purpose: 'put' });
    const expiredRes = await put(`${sys.baseUrl}/v1/evidence/uploads/${expired}`, PNG);
    expect(expiredRes.status).toBe(403);
    expect((await expiredRes.json()).message).toMatch(/expired/);
    const tooBig = await put(asked.body.uploadUrl, Buffer.concat([PNG, Buffer.alloc(10)]));
    expect(tooBig.status).toBe(400);
    expect((await tooBig.json()).message).toContain(`${PNG.length} bytes`);
    const wrongType = await put(asked.body.uploadUrl, PNG, 'text/html');
    expect(wrongType.status).toBe(400);
  });

  it('takes one PUT per upload URL: a second, later or while the first is in flight, is refused and the first bytes are kept', async () => {
    const asked = await start({ contentType: 'image/png', size: PNG.length });
    // The first PUT holds back its last byte: a second one meanwhile finds the URL taken.
    const first = http.request(asked.body.uploadUrl, { method: 'PUT', headers: { 'content-type': 'image/png', 'content-length': PNG.length } });
    const firstAnswer = new Promise<number>((ok, fail) => first.on('response', (res) => (res.resume(), ok(res.statusCode!))).on('error', fail));
    first.write(PNG.subarray(0, -1));
    await new Promise((r) => setTimeout(r, 200));
    const other = Buffer.from(PNG);
    other[other.length - 5]! ^= 0xff;
    const during = await put(asked.body.uploadUrl, other);
    expect(during.status).toBe(403);
    expect((await during.json()).message).toMatch(/has been used/);
    first.end(PNG.subarray(-1));
    expect(await firstAnswer).toBe(200);
    const after = await put(asked.body.uploadUrl, other);
    expect(after.status).toBe(403);
    const { report: r } = await submitAndSettle([{ url: asked.body.evidenceUrl, type: 's3Upload' }]);
    expect(r.evidenceItems).toMatchObject([{ state: 'captured', sha256: sha(PNG) }]);
  });

  it('a PUT that failed (wrong size, or its client gone mid-body) leaves the URL usable', async () => {
    const asked = await start({ contentType: 'image/png', size: PNG.length });
    expect((await put(asked.body.uploadUrl, PNG.subarray(1))).status).toBe(400);
    const cut = http.request(asked.body.uploadUrl, { method: 'PUT', headers: { 'content-type': 'image/png', 'content-length': PNG.length } });
    cut.on('error', () => undefined);
    cut.write(PNG.subarray(0, 10));
    await new Promise((r) => setTimeout(r, 200));
    cut.destroy();
    // Its mark is removed once the gateway sees the connection gone.
    await sys.waitFor(async () => (await put(asked.body.uploadUrl, PNG)).status === 200, 10_000, 'the URL usable again');
  });

  it('answers bad upload requests with the spec 400 naming the field (and the size limit)', async () => {
    const over = await start({ contentType: 'image/png', size: MAX_BYTES + 1 });
    expect(over.status).toBe(400);
    expect(over.body.errors).toEqual([{ field: 'size', message: `size must be at most ${MAX_BYTES} bytes` }]);
    const badType = await start({ contentType: 'text/html', size: 10 });
    expect(badType.status).toBe(400);
    expect(badType.body.errors[0].field).toBe('contentType');
    expect(isErrorShape(badType.body)).toBe(true);
    expect((await sys.post('/v1/evidence/uploads', viewer.auth, { contentType: 'image/png', size: 10 })).status).toBe(403);
  });

  it('records a cited upload whose bytes are not its declared type, or that was never uploaded', async () => {
    const fake = await start({ contentType: 'image/png', size: 20 });
    expect((await put(fake.body.uploadUrl, '<html>not a png</html'.slice(0, 20))).status).toBe(200);
    const never = await start({ contentType: 'image/png', size: PNG.length });
    const { report: r } = await submitAndSettle([
      { url: fake.body.evidenceUrl, type: 's3Upload' },
      { url: never.body.evidenceUrl, type: 's3Upload' },
      { url: `${never.body.evidenceUrl.slice(0, -2)}xx`, type: 's3Upload' },
    ]);
    expect(r.evidenceItems.map((i: any) => [i.index, i.state, i.failure])).toEqual([
      [0, 'failed', 'type_mismatch'],
      [1, 'failed', 'upload_missing'],
      [2, 'failed', 'bad_upload'],
    ]);
  });
});

describe('retention (cli evidence purge)', () => {
  const copyStatus = async (reportId: string) => (await fetch(`${sys.baseUrl}/v1/reports/${reportId}/evidence/0`, { headers: { authorization: viewer.auth } })).status;
  const decide = async (reportId: string, action: 'approve' | 'dismiss') => {
    expect((await sys.post(`/v1/reports/${reportId}/claim`, admin.auth, { moderator: { id: 'm1' } })).status).toBe(200);
    expect((await sys.post(`/v1/reports/${reportId}/${action}`, admin.auth, { moderator: { id: 'm1' } })).status).toBe(200);
  };
  // The retention is the policy's `evidence.retention` (TRIAGE_POLICY), as the evidence worker reads it.
  const purge = async (args: string[], retention: string) => {
    const policy = writePolicy({ ...TEST_POLICY, evidence: { retention } }, `retention-${retention}.json`);
    const res = await sys.cli(['evidence', 'purge', ...args, '--json'], { TRIAGE_POLICY: policy });
    expect(res.code, res.stderr).toBe(0);
    return JSON.parse(res.stdout) as { dryRun: boolean; items: { reportId: string; index: number }[]; blobsDeleted: number };
  };

  it('deletes exactly the evidence of decided cases past retention, keeps it behind an active sanction and while bytes are shared', async () => {
    const dismissed = await submitAndSettle([{ url: local('/shot.png'), type: 'url', createEvidence: true }]);
    const sanctioned = await submitAndSettle([{ url: local('/note.txt'), type: 'url', createEvidence: true }]);
    const open = await submitAndSettle([{ url: local('/shot.png'), type: 'url', createEvidence: true }]);
    await decide(dismissed.reportId, 'dismiss');
    await decide(sanctioned.reportId, 'approve');
    const mine = (items: { reportId: string }[]) => items.filter((i) => [dismissed, sanctioned, open].some((x) => x.reportId === i.reportId)).map((i) => i.reportId);

    // Within the default 90 days nothing of ours is due; at 0 days only the dismissed case's item.
    expect(mine((await purge(['--dry-run'], 'P90D')).items)).toEqual([]);
    const dry = await purge(['--dry-run'], 'P0D');
    expect(dry.dryRun).toBe(true);
    expect(mine(dry.items)).toEqual([dismissed.reportId]);
    expect(await copyStatus(dismissed.reportId)).toBe(200);

    const done = await purge([], 'P0D');
    expect(mine(done.items)).toEqual([dismissed.reportId]);
    expect(await copyStatus(dismissed.reportId)).toBe(404);
    // The same bytes are still held by the open case's item: its copy is still served.
    expect(await copyStatus(open.reportId)).toBe(200);
    expect(await copyStatus(sanctioned.reportId)).toBe(200);
    const view = (await sys.get(`/v1/cases/${dismissed.caseId}`, viewer.auth)).body.case.reports[0].evidenceItems[0];
    expect(view).toMatchObject({ state: 'deleted', sha256: sha(PNG), copyUrl: null });
    expect(mine((await purge(['--dry-run'], 'P0D')).items)).toEqual([]);
  });
});

describe('the console shows kept evidence', () => {
  const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

  it('a captured image inline from our copy, text as text, and never loads the player-supplied URL', async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`);
    const { caseId } = await submitAndSettle([
      { url: local('/shot.png'), type: 'url', createEvidence: true },
      { url: local('/note.txt'), type: 'url', createEvidence: true },
    ]);
    await sys.addModerator('m-viewer', 'viewer');
    const moderator = await sys.createKey(['--permission', 'reports.handle_reports', '--permission', 'reports.view_reports', '--moderator', 'm-viewer']);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    try {
      const context = await browser.newContext();
      const playerUrlLoads: string[] = [];
      // Only the gateway may be asked for anything; a request to the player's server is recorded and refused.
      await context.route(
        (url) => url.origin !== sys.baseUrl,
        (route) => {
          playerUrlLoads.push(route.request().url());
          return route.abort();
        },
      );
      const page = await context.newPage();
      await page.goto(`${sys.baseUrl}/console/`);
      await page.getByLabel('API key').fill(moderator.key);
      await page.getByLabel('Secret').fill(moderator.secret);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
      await page.goto(`${sys.baseUrl}/console/#/cases/${caseId}`);
      const image = page.getByRole('img', { name: 'Kept evidence 1' });
      await image.waitFor();
      expect(await image.getAttribute('src')).toMatch(/^blob:/);
      // The browser decoded it: the 1x1 PNG has a natural width of 1.
      await page.waitForFunction(() => (document.querySelector('img.kept-image') as HTMLImageElement | null)?.naturalWidth === 1);
      await expect.poll(() => page.locator('pre.kept-text').textContent()).toBe('chat log: gg ez');
      expect(playerUrlLoads).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
    }
  }, 60_000);
});

describe('the statement of reasons cites kept evidence', () => {
  it("an approval's statement gives each cited URL with the SHA-256 of the copy kept, null where none was kept", async () => {
    const { reportId, userId } = await submitAndSettle([
      { url: local('/shot.png'), type: 'url', createEvidence: true },
      { url: local('/not-kept.png'), type: 'url' },
    ]);
    expect((await sys.post(`/v1/reports/${reportId}/approve`, admin.auth, { moderator: { id: 'm1' }, duration: 'P1D' })).status).toBe(200);
    const shown = (await sys.get(`/v1/sanctions/${userId}`, admin.auth)).body.sanctions[0];
    expect(shown.statement.facts.evidence).toEqual([
      { url: local('/shot.png'), sha256: sha(PNG) },
      { url: local('/not-kept.png'), sha256: null },
    ]);
  });
});
