import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorShape, report, System, type Key } from './harness.js';

// The queue dashboard (Bull Board) behind admin API keys, over HTTP and in a real headless browser:
// Debian's chromium (`npm test` installs it), driven by playwright-core, which never downloads one.
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

let sys: System;
let admin: Key;
let plain: Key;

beforeAll(async () => {
  // No intake worker: a submitted report stays waiting, so the dashboard has a job to show.
  sys = await System.start({ apps: ['gateway'], env: { QUEUE_DASHBOARD: 'true' } });
  admin = await sys.createKey(['--admin']);
  plain = await sys.createKey(['--permission', 'reports.view_reports', '--permission', 'reports.submit_report', '--permission', 'reports.handle_reports']);
  await sys.addUser('960');
  expect((await sys.post('/v1/reports/new', admin.auth, report('960', 'dash-1'))).status).toBe(200);
});
afterAll(() => sys?.stop());

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const dashboard = (headers: Record<string, string> = {}, path = '/admin/queues') => fetch(`${sys.baseUrl}${path}`, { headers });

describe('GET /admin/queues with QUEUE_DASHBOARD=true', () => {
  it('without credentials: 401 asking the browser for a login', async () => {
    const res = await dashboard();
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect(isErrorShape(await res.json())).toBe(true);
  });

  it('with a key that is not admin, or a wrong secret: 401', async () => {
    for (const headers of [{ authorization: basic(plain.key, plain.secret) }, { authorization: basic(admin.key, 'wrong-secret') }, { authorization: basic('rk_nope', 'x') }]) {
      const res = await dashboard(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
      expect(isErrorShape(await res.json())).toBe(true);
    }
  });

  it('with an admin key as Basic user name and its secret as password: 200 HTML', async () => {
    const res = await dashboard({ authorization: basic(admin.key, admin.secret) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toMatch(/<html/i);
  });

  it('its JSON API lists the queues with their counts, for the admin key only', async () => {
    expect((await dashboard({}, '/admin/queues/api/queues')).status).toBe(401);
    const res = await dashboard({ authorization: basic(admin.key, admin.secret) }, '/admin/queues/api/queues');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { queues: { name: string; counts: Record<string, number> }[] };
    const names = body.queues.map((q) => q.name);
    expect(names).toEqual(expect.arrayContaining(['intake', 'decisions', 'notifications', 'notifications-dead']));
    expect(body.queues.find((q) => q.name === 'intake')!.counts['waiting']).toBe(1);
  });
});

describe('GET /admin/queues without QUEUE_DASHBOARD', () => {
  it('is a 404 in the error shape, even for an admin key', async () => {
    const off = await System.start({ apps: ['gateway'] });
    try {
      const key = await off.createKey(['--admin']);
      for (const headers of [{}, { authorization: basic(key.key, key.secret) }] as Record<string, string>[]) {
        const res = await fetch(`${off.baseUrl}/admin/queues`, { headers });
        expect(res.status).toBe(404);
        const body = await res.json();
        expect(isErrorShape(body)).toBe(true);
      }
    } finally {
      await off.stop();
    }
  });
});

describe('the dashboard in a real headless browser', () => {
  let browser: Browser | undefined;
  let shots: string | undefined;
  afterAll(async () => {
    await browser?.close();
    if (shots) rmSync(shots, { recursive: true, force: true });
  });

  it('logs in with an admin key, shows the intake queue, and renders a screenshot', async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`no Chromium at ${CHROMIUM}: run the tests with \`npm test\` (it installs Debian's chromium when it can), or \`apt-get install chromium\`, or set CHROMIUM_PATH`);
    }
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const context = await browser.newContext({ httpCredentials: { username: admin.key, password: admin.secret }, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const res = await page.goto(`${sys.baseUrl}/admin/queues`);
    expect(res?.status()).toBe(200);
    // The page is a React app that asks the API for the queues: their names appear once it has rendered them.
    await page.getByText('intake', { exact: true }).first().waitFor({ timeout: 20_000 });
    await page.getByText('notifications-dead', { exact: true }).first().waitFor({ timeout: 5_000 });
    // DASHBOARD_SCREENSHOT keeps the picture for a person to look at; by default it is a temporary file.
    const file = process.env['DASHBOARD_SCREENSHOT'] ?? join((shots = mkdtempSync(join(tmpdir(), 'rm-dashboard-'))), 'dashboard.png');
    await page.screenshot({ path: file, fullPage: true });
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(statSync(file).size).toBeGreaterThan(5 * 1024);
  });
});
