import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations, seriousViolations } from './axe.js';
import { isErrorShape, ROOT, report, System, type Key } from './harness.js';
import { categorized, TEST_POLICY, writePolicy } from './triage-policy.js';

// The moderator console (apps/console) as the gateway serves it at /console, in a real headless
// Chromium (Debian's, driven by playwright-core), against the real processes.
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
/** Screenshots of every page, for a person to look at (gitignored). */
const SHOTS = join(ROOT, 'tests', 'e2e', 'test-output', 'console');
const XSS = '<img src=x onerror=alert(1)>';
const PLAYER = '9811';
/** A second case in the queue, so it shows an order. */
const OTHER_PLAYER = '9812';

let sys: System;
let admin: Key;
let alice: Key;
let bob: Key;
let browser: Browser;
const dialogs: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: run the tests with \`npm test\` (it installs Debian's chromium when it can), or \`apt-get install chromium\`, or set CHROMIUM_PATH`);
  }
  mkdirSync(SHOTS, { recursive: true });
  sys = await System.start();
  await sys.addModerator('m-alice', 'alice');
  await sys.addModerator('m-bob', 'bob');
  const moderatorKey = (id: string) =>
    sys.createKey(['--permission', 'reports.handle_reports', '--permission', 'reports.view_reports', '--permission', 'sanctions.read', '--moderator', id]);
  [admin, alice, bob] = await Promise.all([sys.createKey(['--admin']), moderatorKey('m-alice'), moderatorKey('m-bob')]);
  await sys.addUser(PLAYER, 'griefer', 'The Griefer', 'https://avatars.example.test/griefer.png');
  await sys.addUser(OTHER_PLAYER, 'camper', 'Spawn Camper');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});
afterAll(async () => {
  await browser?.close();
  await sys?.stop();
});

async function signedIn(key: Key, on: System = sys): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // No request leaves 127.0.0.1 (the test avatar's host does not exist).
  await context.route((url) => url.hostname !== '127.0.0.1', (route) => route.abort());
  const page = await context.newPage();
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(`${on.baseUrl}/console/`);
  await page.getByLabel('API key').fill(key.key);
  await page.getByLabel('Secret').fill(key.secret);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
  return { context, page };
}

/**
 * The shots docs/console.md shows, by the name this file takes them under. `UPDATE_DOCS_SCREENSHOTS=1`
 * writes them into docs/images as well, so the docs' pictures are made here, never by hand.
 */
const DOCS_SHOTS: Record<string, string> = { queue: 'console-queue.png', case: 'console-case.png', player: 'console-player.png', appeal: 'console-appeal.png' };
const DOCS_IMAGES = join(ROOT, 'docs', 'images');
/** Every page shot is also checked with axe: no serious or critical WCAG 2.2 AA violation (issue 52). */
const shot = async (page: Page, name: string) => {
  await expectNoSeriousViolations(page, `the console's ${name} page`);
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const docs = DOCS_SHOTS[name];
  if (docs && process.env['UPDATE_DOCS_SCREENSHOTS'] === '1') await page.screenshot({ path: join(DOCS_IMAGES, docs), fullPage: true });
};

describe("docs/console.md's screenshots", () => {
  it('are exactly the ones this test makes (UPDATE_DOCS_SCREENSHOTS=1 refreshes them)', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'console.md'), 'utf8');
    const shown = [...doc.matchAll(/\]\(images\/([\w.-]+\.png)\)/g)].map((m) => m[1]!);
    expect(shown.sort()).toEqual(Object.values(DOCS_SHOTS).sort());
    for (const file of shown) expect(existsSync(join(DOCS_IMAGES, file)), file).toBe(true);
  });
});

describe('GET /console', () => {
  it('serves the console with a Content-Security-Policy that allows no inline script', async () => {
    const res = await fetch(`${sys.baseUrl}/console/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    const html = await res.text();
    // Every script is a file of the build: none inline.
    expect(html.match(/<script\b[^>]*>/g)?.every((tag) => / src="\/console\/assets\/[^"]+\.js"/.test(tag))).toBe(true);
    const asset = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const js = await fetch(`${sys.baseUrl}${asset}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-security-policy')).toBe(csp);
  });

  it('/console redirects to /console/', async () => {
    const res = await fetch(`${sys.baseUrl}/console`, { redirect: 'manual' });
    expect([301, 302]).toContain(res.status);
    expect(res.headers.get('location')).toBe('/console/');
  });
});

describe('GET /console with CONSOLE=false', () => {
  it('is a 404 in the error shape; the API is unchanged', async () => {
    const off = await System.start({ apps: ['gateway'], env: { CONSOLE: 'false' } });
    try {
      for (const path of ['/console', '/console/', '/console/index.html']) {
        const res = await off.request('GET', path);
        expect(res.status, path).toBe(404);
        expect(isErrorShape(res.body), path).toBe(true);
      }
      const key = await off.createKey(['--admin']);
      expect((await off.get('/v1/me', key.auth)).status).toBe(200);
    } finally {
      await off.stop();
    }
  });
});

describe('the console in a real headless browser', () => {
  let alicePage: Page;
  let bobPage: Page;
  let caseId: string;

  it('loads without a failed request (its icon included)', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const failed: string[] = [];
    page.on('response', (res) => {
      if (res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
    });
    page.on('requestfailed', (req) => failed.push(`failed ${req.url()}`));
    await page.goto(`${sys.baseUrl}/console/`, { waitUntil: 'networkidle' });
    await page.getByLabel('API key').waitFor();
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('/console/favicon.svg');
    expect(failed).toEqual([]);
    await context.close();
  });

  it('refuses a wrong secret with the API\'s words and keeps nothing', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    await page.goto(`${sys.baseUrl}/console/`);
    await page.getByLabel('API key').fill(alice.key);
    await page.getByLabel('Secret').fill('not-the-secret');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Invalid API key or secret');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await shot(page, 'sign-in');
    await context.close();
  });

  it('signs in with a bound key, kept in sessionStorage only, and names the moderator', async () => {
    alicePage = (await signedIn(alice)).page;
    await alicePage.getByText('Signed in as alice').waitFor();
    expect(alicePage.url()).not.toContain(alice.secret);
    const stored = await alicePage.evaluate(() => ({ session: JSON.stringify(sessionStorage), local: JSON.stringify(localStorage), cookie: document.cookie }));
    expect(stored.session).toContain(alice.secret);
    expect(stored.local).not.toContain(alice.secret);
    expect(stored.cookie).toBe('');
  });

  it('shows a newly submitted case in the queue without a reload', async () => {
    await alicePage.getByRole('heading', { name: 'Queue' }).waitFor();
    await alicePage.getByText('No cases match.').waitFor();
    // A page that reloads loses this mark.
    await alicePage.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    const body = report(PLAYER, 'console-1', {
      answers: [{ questionId: 'what', answer: XSS }],
      evidence: [{ url: 'https://clips.example.test/1', type: 'url' }, { url: 'javascript:alert(2)', type: 'url' }],
    });
    const res = await sys.post('/v1/reports/new', admin.auth, body);
    expect(res.status).toBe(200);
    for (const reporter of ['console-2', 'console-3']) {
      expect((await sys.post('/v1/reports/new', admin.auth, report(OTHER_PLAYER, reporter))).status).toBe(200);
    }
    await alicePage.getByRole('link', { name: 'Spawn Camper', exact: true }).waitFor({ timeout: 15_000 });
    const row = alicePage.getByRole('link', { name: 'The Griefer', exact: true });
    await row.waitFor({ timeout: 15_000 });
    // The name and the id beside the display name, in the same cell.
    await alicePage.getByRole('cell').filter({ has: row }).getByText(`griefer · ${PLAYER}`, { exact: true }).waitFor();
    expect(await alicePage.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    caseId = decodeURIComponent((await row.getAttribute('href'))!.replace('#/cases/', ''));
    const listed = (await sys.get('/v1/cases', admin.auth)).body.cases as { caseId: string; userId: string }[];
    expect(listed.find((c) => c.caseId === caseId)?.userId).toBe(PLAYER);
    await shot(alicePage, 'queue');
  });

  it('opens the case: the XSS answer renders as text, evidence links only for http(s)', async () => {
    await alicePage.getByRole('link', { name: 'The Griefer', exact: true }).click();
    await alicePage.getByRole('heading', { name: `Case of player ${PLAYER}` }).waitFor();
    await alicePage.getByText(XSS, { exact: true }).waitFor();
    expect(await alicePage.locator('img[src="x"]').count()).toBe(0);
    expect(await alicePage.getByRole('link', { name: 'https://clips.example.test/1' }).getAttribute('href')).toBe('https://clips.example.test/1');
    expect(await alicePage.getByRole('link', { name: 'javascript:alert(2)' }).count()).toBe(0);
    await alicePage.getByText('javascript:alert(2)', { exact: true }).waitFor();
    await alicePage.getByText('The Griefer', { exact: true }).waitFor();
    await alicePage.getByText(/credibility 0\.50/).waitFor();
  });

  it('claims the case as alice: the API answers and the console shows its words', async () => {
    await alicePage.getByRole('button', { name: 'Claim', exact: true }).click();
    await expect.poll(() => alicePage.getByRole('status').textContent()).toBe('Report claimed by alice');
    await alicePage.locator('.claim', { hasText: 'Claimed by alice' }).waitFor();
    await shot(alicePage, 'case');
  });

  it('bob, in another browser context, sees it claimed and gets the refusal in the API\'s own words', async () => {
    bobPage = (await signedIn(bob)).page;
    const row = bobPage.getByRole('row').filter({ has: bobPage.getByRole('link', { name: 'The Griefer', exact: true }) });
    await row.getByRole('cell', { name: 'alice', exact: true }).waitFor();
    await row.getByRole('link').click();
    await bobPage.locator('.claim', { hasText: 'Claimed by alice' }).waitFor();
    await bobPage.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect.poll(() => bobPage.getByRole('alert').textContent()).toBe('The case is claimed by alice');
    await bobPage.getByRole('button', { name: 'Claim', exact: true }).click();
    await expect.poll(() => bobPage.getByRole('alert').textContent()).toBe('The case is already claimed by alice');
    await shot(bobPage, 'case-refused');
    const history = await sys.get(`/v1/cases/${encodeURIComponent(caseId)}`, admin.auth);
    expect(history.body.case.state).toBe('claimed');
    expect(history.body.case.claimedBy).toEqual({ id: 'm-alice', username: 'alice' });
  });

  it('approves as alice with the keyboard shortcut; bob\'s page shows the decision without a reload', async () => {
    // The ladder's proposal is offered first (no ladder for this category: a permanent ban), editable.
    await expect.poll(() => alicePage.getByTestId('ladder-proposal').textContent()).toContain('permanent');
    expect(await alicePage.getByLabel('Kind').inputValue()).toBe('ban');
    await alicePage.keyboard.press('a');
    await expect.poll(() => alicePage.getByRole('status').textContent()).toBe(`Report approved: user ${PLAYER} is banned`);
    await alicePage.getByText(/approve by alice \(claimed → approved\)/).waitFor();
    await bobPage.getByText(/approve by alice \(claimed → approved\)/).waitFor({ timeout: 15_000 });
    const c = (await sys.get(`/v1/cases/${encodeURIComponent(caseId)}`, admin.auth)).body.case;
    expect(c.state).toBe('approved');
  });

  it('shows the player page: the report, paged, and the player banned', async () => {
    await alicePage.getByRole('link', { name: 'All reports and sanctions' }).click();
    await alicePage.getByRole('heading', { name: 'The Griefer' }).waitFor();
    await alicePage.getByText(XSS, { exact: true }).waitFor();
    await alicePage.getByText('Banned', { exact: true }).first().waitFor();
    // Each sanction with its kind, source and state.
    await alicePage.getByRole('cell', { name: 'case', exact: true }).first().waitFor();
    await alicePage.getByRole('cell', { name: 'active', exact: true }).first().waitFor();
    await alicePage.getByText('Page 1 of 1').waitFor();
    await shot(alicePage, 'player');
  });

  it('shows queue health as charts', async () => {
    await alicePage.getByRole('link', { name: 'Stats', exact: true }).click();
    await alicePage.getByRole('heading', { name: 'Queue health' }).waitFor();
    await alicePage.getByRole('img', { name: 'Decisions by kind' }).waitFor();
    await alicePage.getByRole('img', { name: 'Approvals and dismissals per moderator' }).waitFor();
    await alicePage.getByText('Open cases:', { exact: false }).first().waitFor();
    await shot(alicePage, 'stats');
    expect(dialogs).toEqual([]);
  });

  it('reaches every action of a case by keyboard alone, each with a visible focus', async () => {
    const keyboardPlayer = '9831';
    await sys.addUser(keyboardPlayer, 'keyboarder', 'Key Boarder');
    expect((await sys.post('/v1/reports/new', admin.auth, report(keyboardPlayer, 'console-keys'))).status).toBe(200);
    await alicePage.getByRole('link', { name: 'Queue', exact: true }).click();
    await alicePage.getByRole('link', { name: 'Key Boarder', exact: true }).waitFor({ timeout: 15_000 });
    // From the queue to the case with Tab and Enter only.
    expect(await tabTo(alicePage, 'Key Boarder')).toBe(true);
    await alicePage.keyboard.press('Enter');
    await alicePage.getByRole('heading', { name: `Case of player ${keyboardPlayer}` }).waitFor();
    expect(await tabTo(alicePage, 'Claim')).toBe(true);
    await alicePage.keyboard.press('Enter');
    await expect.poll(() => alicePage.getByRole('status').textContent()).toBe('Report claimed by alice');
    const stops = await tabStops(alicePage);
    for (const action of ['Queue', 'Appeals', 'Stats', 'Find player', 'Sign out', 'Unclaim', 'Approve', 'Dismiss']) {
      expect(stops.map((s) => s.name), action).toContain(action);
    }
    expect(stops.filter((s) => !s.focusVisible)).toEqual([]);
  });

  it('axe finds a violation when there is one (the check can fail)', async () => {
    await alicePage.evaluate(() => document.querySelector('main')?.insertAdjacentHTML('beforeend', '<img src="/console/favicon.svg"><button></button>'));
    expect((await seriousViolations(alicePage)).map((v) => v.id)).toEqual(expect.arrayContaining(['image-alt', 'button-name']));
    await alicePage.reload();
  });
});

/** Puts the keyboard at the top of the page, as when it has just loaded: the next Tab goes to its first control. */
async function focusTop(page: Page): Promise<void> {
  await page.evaluate(() => {
    const start = document.createElement('span');
    start.tabIndex = -1;
    document.body.prepend(start);
    start.focus();
    start.addEventListener('blur', () => start.remove(), { once: true });
  });
}

/** What Tab focuses in turn from the top of the page, once round: each stop's name and whether its focus shows. */
async function tabStops(page: Page, max = 80): Promise<{ name: string; focusVisible: boolean }[]> {
  await focusTop(page);
  const stops: { name: string; focusVisible: boolean }[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const style = getComputedStyle(el);
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
      const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
      return { name: (el.getAttribute('aria-label') ?? label ?? el.textContent ?? '').trim(), focusVisible: outline || style.boxShadow !== 'none', key: el.outerHTML.slice(0, 200) };
    });
    if (!stop || stops.some((s) => (s as { key?: string }).key === stop.key)) break;
    stops.push(stop);
  }
  return stops.map(({ name, focusVisible }) => ({ name, focusVisible }));
}

/** Tabs until the focused element is named `name` (true), or a round ends without it. */
async function tabTo(page: Page, name: string): Promise<boolean> {
  await focusTop(page);
  const seen = new Set<string>();
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const [focused, key] = await page.evaluate(() => [(document.activeElement?.textContent ?? '').trim(), document.activeElement?.outerHTML.slice(0, 200) ?? '']);
    if (focused === name) return true;
    if (seen.has(key!)) return false;
    seen.add(key!);
  }
  return false;
}

describe('the queue finds SLA breaches (issue 32)', () => {
  // Its own system: `other` has a 2 s SLA, `cheating` 4 h.
  const policy = { ...TEST_POLICY, categories: { ...TEST_POLICY.categories, other: { severity: 0, sla: 'PT2S', clause: 'Follow the code of conduct.' } } };
  let slaSys: System;

  afterAll(async () => {
    await slaSys?.stop();
  });

  it('the Flag filter offers sla_breached; it lists the case past its SLA with its badge and the player named', async () => {
    slaSys = await System.start({ env: { MAX_REPORTS_PER_DAY: '1000', TRIAGE_POLICY: writePolicy(policy) } });
    await slaSys.addUser('9821', 'alpha', 'ALPHA');
    await slaSys.addUser('9822', 'bravo', 'Bravo');
    const [submitter, viewer] = await Promise.all([slaSys.createKey(['--permission', 'reports.submit_report']), slaSys.createKey(['--permission', 'reports.view_reports'])]);
    expect((await slaSys.post('/v1/reports/new', submitter.auth, categorized('9821', 'sla-1', 'other'))).status).toBe(200);
    expect((await slaSys.post('/v1/reports/new', submitter.auth, categorized('9822', 'sla-2', 'cheating'))).status).toBe(200);
    await slaSys.waitFor(
      async () => ((await slaSys.get('/v1/cases?flag=sla_breached', viewer.auth)).body.cases ?? []).some((c: { userId: string }) => c.userId === '9821'),
      30_000,
      'the case past its SLA to be flagged',
    );

    const { context, page } = await signedIn(viewer, slaSys);
    await page.getByRole('link', { name: 'Bravo', exact: true }).waitFor({ timeout: 15_000 });
    await page.getByLabel('Flag').selectOption('sla_breached');
    const breached = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'ALPHA', exact: true }) });
    await breached.getByText('SLA breached', { exact: true }).waitFor({ timeout: 15_000 });
    await breached.getByText('alpha · 9821', { exact: true }).waitFor();
    await page.getByText('1 case', { exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Bravo', exact: true }).count()).toBe(0);
    await shot(page, 'queue-sla-breached');
    await context.close();
  });
});

describe('appeals in the console (issue 28)', () => {
  const APPELLANT = '9813';
  let appealId: string;

  it('lists a player\'s appeal in the appeals queue; the decider is refused in the API\'s words', async () => {
    await sys.addUser(APPELLANT, 'sniper', 'Lucky Sniper');
    const res = await sys.post('/v1/reports/new', admin.auth, report(APPELLANT, 'console-appeal-1', { evidence: [{ url: 'https://clips.example.test/appeal', type: 'url' }] }));
    expect(res.status).toBe(200);
    await sys.waitFor(async () => (await sys.get(`/v1/reports/${APPELLANT}`, admin.auth)).body.count === 1, 15_000, 'the report stored');
    expect((await sys.post(`/v1/reports/${res.body.id}/approve`, admin.auth, { moderator: { id: 'm-alice' }, reason: 'Aimbot' })).status).toBe(200);
    const sanctionId = (await sys.get(`/v1/sanctions/${APPELLANT}`, admin.auth)).body.sanctions[0].id;
    const filed = await sys.post('/v1/appeals', admin.auth, { sanctionId, userId: APPELLANT, statement: `It was a lucky shot ${XSS}` });
    expect(filed.status).toBe(200);
    appealId = filed.body.appeal.id;

    const { page } = await signedIn(alice);
    await page.getByRole('link', { name: 'Appeals', exact: true }).click();
    await page.getByRole('heading', { name: 'Appeals' }).waitFor();
    await page.getByText(`It was a lucky shot ${XSS}`, { exact: true }).waitFor({ timeout: 15_000 });
    await shot(page, 'appeals');
    await page.getByRole('link', { name: 'open', exact: true }).click();
    await page.getByRole('heading', { name: `Appeal of player ${APPELLANT}` }).waitFor();
    await page.getByRole('button', { name: 'Claim appeal', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Moderator m-alice decided the sanction under appeal: another moderator must claim and decide the appeal');
    await page.context().close();
  });

  it('bob opens the appeal (statement, sanction, original case and evidence), claims and overturns it with a reason; the player page and stats show it', async () => {
    const { page } = await signedIn(bob);
    await page.goto(`${sys.baseUrl}/console/#/appeals/${encodeURIComponent(appealId)}`);
    await page.getByRole('heading', { name: `Appeal of player ${APPELLANT}` }).waitFor();
    await page.getByText(`It was a lucky shot ${XSS}`, { exact: true }).waitFor();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    await page.getByRole('heading', { name: /The original case/ }).waitFor();
    await page.getByRole('link', { name: 'https://clips.example.test/appeal' }).waitFor();
    await page.getByText('Aimbot', { exact: true }).first().waitFor();
    // The sanction's statement of reasons, as the player was given it.
    await expect.poll(() => page.locator('details.statement summary').first().textContent()).toMatch(/^Terms: /);
    await page.getByRole('button', { name: 'Claim appeal', exact: true }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Claimed: the appeal is claimed');
    await page.getByLabel('Reason (sent to the player)').fill('The clip shows no aim assistance');
    await page.getByRole('button', { name: 'Overturn sanction' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Overturned: the appeal is overturned');
    await page.getByText(/overturn by bob \(claimed → overturned\): The clip shows no aim assistance/).waitFor();
    await page.getByRole('definition').filter({ hasText: /^The clip shows no aim assistance$/ }).waitFor();
    await shot(page, 'appeal');
    const status = (await sys.get(`/v1/sanctions/${APPELLANT}`, admin.auth)).body;
    expect(status.banned).toBe(false);

    await page.goto(`${sys.baseUrl}/console/#/players/${APPELLANT}`);
    await page.getByRole('heading', { name: 'Appeals' }).waitFor();
    await page.getByRole('cell', { name: 'overturned', exact: true }).waitFor();
    await page.getByRole('cell', { name: 'The clip shows no aim assistance', exact: true }).waitFor();
    // The overturn lifted the sanction: the sanctions table says why.
    await page.getByRole('cell', { name: 'lifted Lifted: The clip shows no aim assistance', exact: true }).waitFor();

    await page.getByRole('link', { name: 'Stats', exact: true }).click();
    await page.getByRole('img', { name: 'Appeals overturned per moderator (%)' }).waitFor();
    await page.getByRole('img', { name: 'Appeals overturned per category (%)' }).waitFor();
    await shot(page, 'stats-appeals');
    expect(dialogs).toEqual([]);
    await page.context().close();
  });
});
