import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createStore } from '@rm/storage-factory';
import { assembleStatement, TriagePolicy } from '@rm/triage';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from './axe.js';
import { isErrorShape, ROOT, System, type Key } from './harness.js';
import { TEST_POLICY, writePolicy } from './triage-policy.js';

// The player's appeal page (docs/appeals.md): a game server asks for a player's link; the page,
// served by the gateway without sign-in, shows the statement of reasons in English or German and
// takes the player's appeal through the same use case as POST /v1/appeals. Every state is checked
// in a real headless Chromium (Debian's, through playwright-core) and with axe-core (WCAG 2.2 AA);
// bad, expired and borrowed links, cross-site posts and the limits answer pages of their own.
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const SECRET = 'appeal-link-secret-for-the-e2e-tests-0123456789';
const SUBMITS_PER_MINUTE = 3;
const XSS = '<script>alert("x")</script><img src=x onerror=alert(1)>';
const DESCRIPTION = { en: 'Cheating: using software that gives an unfair advantage.', de: 'Betrug: Software, die einen unfairen Vorteil verschafft.' };
const POLICY = { ...TEST_POLICY, categories: { ...TEST_POLICY.categories, cheating: { ...TEST_POLICY.categories.cheating, publicDescription: DESCRIPTION } } };
/** A screenshot of every state checked, for a person to look at (gitignored). */
const SHOTS = join(ROOT, 'tests', 'e2e', 'test-output', 'appeal-page');
const CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

let sys: System;
let anticheat: Key;
let game: Key;
let admin: Key;
let browser: Browser;
let nextUser = 9700;
let nextKey = 0;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: run the tests with \`npm test\`, or \`apt-get install chromium\`, or set CHROMIUM_PATH`);
  mkdirSync(SHOTS, { recursive: true });
  // The moderation worker decides appeals; the sanctions API makes sanctions without reports.
  sys = await System.start({
    apps: ['gateway', 'moderation'],
    env: { TRIAGE_POLICY: writePolicy(POLICY), APPEAL_LINK_SECRET: SECRET, APPEAL_PAGE_SUBMITS_PER_MINUTE: String(SUBMITS_PER_MINUTE), APPEAL_PAGE_REQUESTS_PER_MINUTE: '10000' },
  });
  [anticheat, game, admin] = await Promise.all([
    sys.createKey(['--name', 'anticheat', '--permission', 'sanctions.write']),
    sys.createKey(['--name', 'game', '--permission', 'appeals.submit']),
    sys.createKey(['--admin']),
  ]);
  await sys.addModerator('m1', 'alice');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await sys?.stop();
});

/** A player with one sanction of the sanctions API: its id, and the player's. */
async function sanctioned(extra: Record<string, unknown> = {}): Promise<{ userId: string; sanctionId: string }> {
  const userId = String(nextUser++);
  const res = await sys.post('/v1/sanctions', anticheat.auth, {
    userId,
    kind: 'ban',
    category: 'cheating',
    reason: 'Aimbot detected in ranked matches',
    source: { type: 'anticheat', id: 'ac-1' },
    idempotencyKey: `page-${nextKey++}`,
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { userId, sanctionId: res.body.sanction.id };
}

const linkFor = (s: { userId: string; sanctionId: string }, key: Key = game) => sys.post(`/v1/sanctions/${encodeURIComponent(s.sanctionId)}/appeal-link`, key.auth, { userId: s.userId });
async function pathOf(s: { userId: string; sanctionId: string }): Promise<string> {
  const res = await linkFor(s);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return new URL(res.body.url).pathname;
}

/** A token signed with the secret, as the gateway makes them: for links it would never hand out. */
function craft(sanctionId: string, userId: string, expiresAt: number): string {
  const body = Buffer.from(JSON.stringify(['appeal-link/1', sanctionId, userId, expiresAt])).toString('base64url');
  return `${body}.${createHmac('sha256', SECRET).update(body).digest('base64url')}`;
}

async function fetchPage(path: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; html: string }> {
  const res = await fetch(`${sys.baseUrl}${path}`, { redirect: 'manual', ...init });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** A form post as a browser on the page sends it. */
const postForm = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetchPage(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: sys.baseUrl, 'sec-fetch-site': 'same-origin', ...headers }, body: new URLSearchParams(fields).toString() });
const tokenOf = (path: string) => path.split('/').at(-1)!;

async function newPage(locale = 'en-GB'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale, viewport: { width: 1024, height: 800 } });
  // Nothing leaves 127.0.0.1; the page asks for nothing else anyway (checked below).
  await context.route((url) => url.hostname !== '127.0.0.1', (route) => route.abort());
  return { context, page: await context.newPage() };
}

/**
 * The limits count per clock minute (as every per-minute limit of the service): a test of one
 * starts with at least 15 s of its minute left, so no boundary falls between its requests.
 */
async function withinOneMinute(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 15_000) await new Promise((r) => setTimeout(r, left + 50));
}

/** axe on the page as it is (no serious or critical WCAG 2.2 AA violation), and its screenshot. */
async function checked(page: Page, state: string): Promise<void> {
  await expectNoSeriousViolations(page, state);
  await page.screenshot({ path: join(SHOTS, `${state.replace(/\W+/g, '-').replace(/^-|-$/g, '')}.png`), fullPage: true });
}

const appealsOf = async (userId: string) => (await sys.get(`/v1/appeals?userId=${userId}`, admin.auth)).body.appeals as any[];

describe('POST /v1/sanctions/{sanctionId}/appeal-link', () => {
  it('answers the URL of the page with a token that expires after APPEAL_LINK_TTL (30 days by default)', async () => {
    const s = await sanctioned();
    const before = Date.now();
    const res = await linkFor(s);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['expiresAt', 'success', 'url']);
    expect(res.body.url).toMatch(new RegExp(`^${sys.baseUrl}/appeal/[\\w-]+\\.[\\w-]+$`));
    expect(res.body.expiresAt).toBeGreaterThanOrEqual(before + 30 * 86_400_000);
    expect(res.body.expiresAt).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000);
  });

  it("needs appeals.submit (403), a key (401), the player's own sanction (404 as for an unknown one) and a body (400)", async () => {
    const s = await sanctioned();
    const other = await sanctioned();
    const reader = await sys.createKey(['--permission', 'sanctions.read']);
    const refused = await linkFor(s, reader);
    expect(refused.status).toBe(403);
    expect(isErrorShape(refused.body)).toBe(true);
    expect((await sys.request('POST', `/v1/sanctions/${s.sanctionId}/appeal-link`, { body: { userId: s.userId } })).status).toBe(401);
    const unknown = await linkFor({ userId: s.userId, sanctionId: 'no-such-sanction' });
    const theirs = await linkFor({ userId: s.userId, sanctionId: other.sanctionId });
    expect([unknown.status, theirs.status]).toEqual([404, 404]);
    expect(unknown.body.message).toBe(`User ${s.userId} has no sanction no-such-sanction`);
    expect(theirs.body.message).toBe(`User ${s.userId} has no sanction ${other.sanctionId}`);
    const bad = await sys.post(`/v1/sanctions/${s.sanctionId}/appeal-link`, game.auth, {});
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.field)).toEqual(['userId']);
  });

  it("a ban wave not started yet has no link: the player must not learn of it early (404)", async () => {
    const userId = String(nextUser++);
    const wave = await sys.post('/v1/sanctions/batch', anticheat.auth, {
      effectiveAt: new Date(Date.now() + 3_600_000).toISOString(),
      items: [{ userId, kind: 'ban', category: 'cheating', reason: 'Wave', source: { type: 'anticheat', id: 'wave' }, idempotencyKey: `wave-${userId}` }],
    });
    expect(wave.body.results[0].status).toBe('created');
    expect((await linkFor({ userId, sanctionId: wave.body.results[0].sanction.id })).status).toBe(404);
  });
});

describe('GET /appeal/{token}', () => {
  it('shows the statement of reasons in plain English with a strict CSP, no script, no inline style, every value escaped', async () => {
    const s = await sanctioned({ reason: `Aimbot ${XSS}`, duration: 'P14D' });
    const res = await fetchPage(await pathOf(s), { headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CSP);
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('vary')).toMatch(/accept-language/i);
    expect(res.html).toMatch(/^<!doctype html>\n<html lang="en">/);
    for (const text of ['Banned: you cannot sign in to the game', 'Do not use cheats, hacks or exploits.', DESCRIPTION.en, 'An automated system decided', 'Our own checks found it.', 'You can appeal until', 'Send appeal']) {
      expect(res.html, text).toContain(text);
    }
    expect(res.html).toContain('Aimbot &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
    // Markup is only ours: no script or style element, no event handler or style attribute.
    const tags = res.html.match(/<[a-z][^>]*>/gi)!;
    expect(tags.filter((t) => /^<(script|style)\b/i.test(t) || /\s(on\w+|style)=/i.test(t))).toEqual([]);
    expect(res.html).not.toMatch(/https?:\/\//);
    const css = await fetchPage('/appeal/assets/page.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(css.html).toContain(':focus-visible');
  });

  it('speaks German by Accept-Language, with the policy’s German description; ?lang= switches', async () => {
    const s = await sanctioned({ automatedDecision: 'not' });
    const path = await pathOf(s);
    const de = await fetchPage(path, { headers: { 'accept-language': 'fr-CH, de;q=0.8, en;q=0.5' } });
    expect(de.html).toMatch(/<html lang="de">/);
    expect(de.headers.get('content-language')).toBe('de');
    for (const text of ['Eine Einschränkung Ihres Kontos', 'Gesperrt: Sie können sich nicht im Spiel anmelden', DESCRIPTION.de, 'Ein Mensch aus unserem Moderationsteam hat entschieden.', 'Einspruch senden', 'UTC']) {
      expect(de.html, text).toContain(text);
    }
    expect(de.html).not.toContain(DESCRIPTION.en);
    const en = await fetchPage(`${path}?lang=en`, { headers: { 'accept-language': 'de' } });
    expect(en.html).toMatch(/<html lang="en">/);
    expect(en.html).toContain(DESCRIPTION.en);
    // Neither spoken: English.
    expect((await fetchPage(path, { headers: { 'accept-language': 'ja' } })).html).toMatch(/<html lang="en">/);
  });
});

describe('the appeal page in a real headless browser', () => {
  it('switches language by its links, is used by keyboard alone with a visible focus, and files the appeal POST /v1/appeals sees', async () => {
    const s = await sanctioned();
    const path = await pathOf(s);
    const { context, page } = await newPage('en-GB');
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    try {
      await page.goto(`${sys.baseUrl}${path}`);
      await expect.poll(() => page.getAttribute('html', 'lang')).toBe('en');
      await checked(page, 'the statement with the form (English)');
      await page.getByRole('link', { name: 'Deutsch' }).click();
      await expect.poll(() => page.getAttribute('html', 'lang')).toBe('de');
      await page.getByRole('heading', { name: 'Eine Einschränkung Ihres Kontos' }).waitFor();
      await checked(page, 'the statement with the form (German)');
      await page.getByRole('link', { name: 'English' }).click();
      await page.getByRole('heading', { name: 'A restriction on your account' }).waitFor();

      // Keyboard only: Tab through every control; each shows a focus outline.
      const focused: { tag: string; name: string; outline: string }[] = [];
      for (let i = 0; i < 6; i++) {
        await page.keyboard.press('Tab');
        focused.push(
          await page.evaluate(() => {
            const el = document.activeElement as HTMLElement;
            const style = getComputedStyle(el);
            return { tag: el.tagName.toLowerCase(), name: el.textContent?.trim() || el.getAttribute('name') || '', outline: `${style.outlineStyle} ${style.outlineWidth}` };
          }),
        );
      }
      expect(focused.map((f) => `${f.tag} ${f.name}`).slice(0, 4)).toEqual(['a English', 'a Deutsch', 'textarea statement', 'button Send appeal']);
      for (const f of focused.slice(0, 4)) expect(f.outline, f.name).toMatch(/^solid [3-9]/);

      // Empty, then too long: the form says what is wrong, keeps the text, sends nothing.
      await page.getByLabel('Why the decision is wrong').focus();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.getByRole('alert').filter({ hasText: 'the appeal is empty' }).waitFor();
      expect(await page.title()).toMatch(/^Error: /);
      expect(await page.getByLabel('Why the decision is wrong').getAttribute('aria-invalid')).toBe('true');
      await checked(page, 'the form with an empty appeal');
      await page.getByLabel('Why the decision is wrong').fill('x'.repeat(2001));
      await page.getByRole('button', { name: 'Send appeal' }).click();
      await page.getByRole('alert').filter({ hasText: 'Your appeal has 2,001 characters: shorten it to at most 2,000.' }).waitFor();
      expect(await page.getByLabel('Why the decision is wrong').inputValue()).toHaveLength(2001);
      await checked(page, 'the form with a too long appeal');
      expect(await appealsOf(s.userId)).toEqual([]);

      // A valid appeal, typed and sent by keyboard; markup in it stays text.
      const statement = `I was not cheating.\nThe clip shows ${XSS}`;
      await page.getByLabel('Why the decision is wrong').fill('');
      await page.getByLabel('Why the decision is wrong').focus();
      await page.keyboard.type(statement);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Your appeal was sent.' }).waitFor();
      await page.getByRole('heading', { name: 'We received your appeal' }).waitFor();
      expect(await page.locator('blockquote').textContent()).toBe(statement);
      expect(await page.locator('script, img').count()).toBe(0);
      expect(await page.getByRole('textbox').count()).toBe(0);
      await checked(page, 'the appeal submitted and pending');
      expect(requests.every((u) => u.startsWith(sys.baseUrl))).toBe(true);

      // The same appeal as the game's: one per sanction, with the player's text.
      const [appeal] = await appealsOf(s.userId);
      expect(appeal).toMatchObject({ sanctionId: s.sanctionId, userId: s.userId, state: 'open', statement });
      const again = await sys.post('/v1/appeals', game.auth, { sanctionId: s.sanctionId, userId: s.userId, statement: 'again' });
      expect(again.body).toMatchObject({ created: false, appeal: { id: appeal.id } });
      // Reloading shows the appeal; it sends nothing again.
      await page.reload();
      await page.getByRole('heading', { name: 'We received your appeal' }).waitFor();
      expect(await appealsOf(s.userId)).toHaveLength(1);
    } finally {
      await context.close();
    }
  });

  it('a second appeal from a page opened before the first is refused with a page saying so', async () => {
    const s = await sanctioned();
    const url = `${sys.baseUrl}${await pathOf(s)}`;
    const { context, page } = await newPage();
    try {
      const stale = await context.newPage();
      await Promise.all([page.goto(url), stale.goto(url)]);
      await page.getByLabel('Why the decision is wrong').fill('First appeal');
      await page.getByRole('button', { name: 'Send appeal' }).click();
      await page.getByRole('heading', { name: 'We received your appeal' }).waitFor();
      await stale.getByLabel('Why the decision is wrong').fill('Second appeal');
      const [answer] = await Promise.all([stale.waitForResponse((r) => r.request().method() === 'POST'), stale.getByRole('button', { name: 'Send appeal' }).click()]);
      expect(answer.status()).toBe(400);
      await stale.getByRole('alert').filter({ hasText: 'this decision already has an appeal' }).waitFor();
      expect(await stale.locator('blockquote').textContent()).toBe('First appeal');
      await checked(stale, 'a second appeal refused');
      expect((await appealsOf(s.userId)).map((a) => a.statement)).toEqual(['First appeal']);
    } finally {
      await context.close();
    }
  });

  it('once decided, shows the outcome and the reviewer’s reason: overturned (lifted) and upheld', async () => {
    const [lifted, kept] = [await sanctioned(), await sanctioned()];
    const reason = `Reviewed the clip: <b>no</b> aimbot ${XSS}`;
    for (const [s, verb] of [[lifted, 'overturn'], [kept, 'uphold']] as const) {
      const filed = await sys.post('/v1/appeals', game.auth, { sanctionId: s.sanctionId, userId: s.userId, statement: 'Please look again' });
      const decided = await sys.post(`/v1/appeals/${filed.body.appeal.id}/${verb}`, admin.auth, { moderator: { id: 'm1' }, reason });
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    }
    const { context, page } = await newPage('de-DE');
    try {
      await page.goto(`${sys.baseUrl}${await pathOf(lifted)}`);
      await page.getByRole('heading', { name: 'Ihr Einspruch war erfolgreich: die Einschränkung ist aufgehoben' }).waitFor();
      expect(await page.getByText(/^Aufgehoben am /).count()).toBe(1);
      expect(await page.locator('.outcome blockquote').textContent()).toBe(reason);
      expect(await page.locator('script, img, b').count()).toBe(0);
      await checked(page, 'an appeal overturned');
      await page.goto(`${sys.baseUrl}${await pathOf(kept)}?lang=en`);
      await page.getByRole('heading', { name: 'Your appeal was not successful: the decision stands' }).waitFor();
      expect(await page.locator('.outcome blockquote').textContent()).toBe(reason);
      expect(await page.getByText('In force', { exact: true }).count()).toBe(1);
      await checked(page, 'an appeal upheld');
    } finally {
      await context.close();
    }
  });

  it('past the appeal window, or after a lift, shows why no appeal can be filed; a post is refused the same way', async () => {
    // A sanction that started 181 days ago, stored through the storage port as a trusted system's.
    const userId = String(nextUser++);
    const at = Date.now() - 181 * 86_400_000;
    const statement = assembleStatement(TriagePolicy.parse(POLICY), {
      category: 'cheating',
      kind: 'ban',
      from: at,
      until: null,
      reason: 'Old cheat',
      origin: 'own_initiative',
      reports: null,
      evidence: [],
      automatedDetection: true,
      automatedDecision: 'fully',
      issuedAt: at,
    });
    const store = await createStore({ DATA_DIR: sys.dataDir, MONGODB_URL: sys.env['MONGODB_URL'], MONGODB_DB: sys.env['MONGODB_DB'] });
    try {
      const id = `old-${userId}`;
      const item = { id, userId, kind: 'ban', blocksLogin: true, category: 'cheating', source: { type: 'anticheat', id: 'ac-1' }, idempotencyKey: id, evidence: [], reason: 'Old cheat', moderatorId: anticheat.key, expiresAt: null, statement, effects: [] };
      await store.createSanctions({ items: [item], at, effectiveAt: null, sourceId: id });
    } finally {
      await store.close();
    }
    const old = { userId, sanctionId: `old-${userId}` };
    const path = await pathOf(old);
    const { context, page } = await newPage();
    try {
      await page.goto(`${sys.baseUrl}${path}`);
      await page.getByRole('heading', { name: 'You can no longer appeal here' }).waitFor();
      await page.getByText(/^The time to appeal ended on /).waitFor();
      expect(await page.getByRole('textbox').count()).toBe(0);
      await checked(page, 'the appeal window closed');

      const lifted = await sanctioned();
      const liftedPath = await pathOf(lifted);
      expect((await sys.post(`/v1/sanctions/${lifted.sanctionId}/lift`, anticheat.auth, { reason: 'False positive' })).status).toBe(200);
      await page.goto(`${sys.baseUrl}${liftedPath}`);
      await page.getByText(/^The restriction was lifted on .*: there is nothing left to appeal\.$/).waitFor();
      await checked(page, 'a lifted sanction');
    } finally {
      await context.close();
    }
    const post = await postForm(path, { token: tokenOf(path), statement: 'unfair' });
    expect(post.status).toBe(400);
    expect(post.html).toContain('The time to appeal ended on');
    expect(await appealsOf(userId)).toEqual([]);
  });

  it('a tampered, expired or borrowed link shows a page saying so (403), never the decision or a stack trace', async () => {
    const mine = await sanctioned({ reason: 'Mine' });
    const theirs = await sanctioned({ reason: 'Someone else’s secret reason' });
    const token = tokenOf(await pathOf(mine));
    const [body, signature] = token.split('.') as [string, string];
    const swapped = Buffer.from(Buffer.from(body, 'base64url').toString('utf8').replace(mine.sanctionId, theirs.sanctionId)).toString('base64url');
    const cases: [string, string, string][] = [
      ['a changed signature', `${body}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`, 'This link does not work'],
      ["another sanction's id put in the token", `${swapped}.${signature}`, 'This link does not work'],
      ['not a token', 'not-a-token', 'This link does not work'],
      ["a signed token naming another player's sanction", craft(theirs.sanctionId, mine.userId, Date.now() + 60_000), 'This link does not work'],
      ['an expired token', craft(mine.sanctionId, mine.userId, Date.now() - 1_000), 'This link has expired'],
    ];
    const { context, page } = await newPage();
    try {
      for (const [what, bad, title] of cases) {
        const res = await fetchPage(`/appeal/${bad}`);
        expect(res.status, what).toBe(403);
        expect(res.html, what).toContain(`<h1>${title}</h1>`);
        expect(res.headers.get('content-security-policy'), what).toBe(CSP);
        expect(res.html, what).not.toMatch(/secret reason|Mine|Error:|\bat \w+ \(/);
        const post = await postForm(`/appeal/${bad}`, { token: bad, statement: 'unfair' });
        expect([post.status, post.html.includes(title)], what).toEqual([403, true]);
      }
      await page.goto(`${sys.baseUrl}/appeal/${cases[0]![1]}`);
      await checked(page, 'a tampered link');
      await page.goto(`${sys.baseUrl}/appeal/${cases[4]![1]}?lang=de`);
      await page.getByRole('heading', { name: 'Dieser Link ist abgelaufen' }).waitFor();
      await checked(page, 'an expired link');
      await page.goto(`${sys.baseUrl}/appeal/some/other/path`);
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    } finally {
      await context.close();
    }
    expect(await appealsOf(mine.userId)).toEqual([]);
    expect(await appealsOf(theirs.userId)).toEqual([]);
  });
});

describe('POST /appeal/{token}', () => {
  it('refuses a post from another site (Origin, Sec-Fetch-Site) and a form without its token, sending nothing', async () => {
    const s = await sanctioned();
    const path = await pathOf(s);
    const token = tokenOf(path);
    const crossOrigin = await postForm(path, { token, statement: 'forged' }, { origin: 'https://evil.example' });
    expect(crossOrigin.status).toBe(403);
    expect(crossOrigin.html).toContain('The form was not accepted');
    const crossSite = await postForm(path, { token, statement: 'forged' }, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const nullOrigin = await postForm(path, { token, statement: 'forged' }, { origin: 'null' });
    expect(nullOrigin.status).toBe(403);
    const noToken = await postForm(path, { statement: 'forged' });
    expect([noToken.status, noToken.html.includes('The form could not be read')]).toEqual([400, true]);
    const json = await fetchPage(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, statement: 'forged' }) });
    expect([json.status, json.html.includes('The form could not be read')]).toEqual([400, true]);
    expect(await appealsOf(s.userId)).toEqual([]);
    // Without either header (an older browser), the token in the form is enough.
    const plain = await fetchPage(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token, statement: 'Mine, sent by an older browser' }).toString() });
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toBe(`${token}?lang=en&sent=1`);
    expect((await appealsOf(s.userId)).map((a) => a.statement)).toEqual(['Mine, sent by an older browser']);
  });

  it(`limits posts per link to APPEAL_PAGE_SUBMITS_PER_MINUTE (${SUBMITS_PER_MINUTE}), counted by its sanction, with a 429 page`, async () => {
    const s = await sanctioned();
    const path = await pathOf(s);
    await withinOneMinute();
    // Posts of empty appeals (each refused with the form): the limit counts posts, not appeals.
    const statuses: number[] = [];
    for (let i = 0; i <= SUBMITS_PER_MINUTE; i++) statuses.push((await postForm(path, { token: tokenOf(path), statement: '' })).status);
    expect(statuses).toEqual([...Array<number>(SUBMITS_PER_MINUTE).fill(400), 429]);
    // A fresh link to the same sanction is counted with it; another sanction's link is not.
    const fresh = await pathOf(s);
    const refused = await postForm(fresh, { token: tokenOf(fresh), statement: 'unfair' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.html).toContain('<h1>Too many attempts</h1>');
    const other = await pathOf(await sanctioned());
    expect((await postForm(other, { token: tokenOf(other), statement: '' })).status).toBe(400);
    // Viewing is not posting.
    expect((await fetchPage(fresh)).status).toBe(200);
    const { context, page } = await newPage();
    try {
      await page.goto(`${sys.baseUrl}${fresh}`);
      await page.getByLabel('Why the decision is wrong').fill('unfair');
      await page.getByRole('button', { name: 'Send appeal' }).click();
      await page.getByRole('heading', { name: 'Too many attempts' }).waitFor();
      await checked(page, 'too many posts');
    } finally {
      await context.close();
    }
  });
});

describe('a gateway without APPEAL_LINK_SECRET', () => {
  it('makes no links (500 naming the variable), its pages say appeals are not available, and it limits page requests per address', async () => {
    const off = await System.start({ apps: ['gateway'], env: { APPEAL_PAGE_REQUESTS_PER_MINUTE: '3' } });
    try {
      const key = await off.createKey(['--admin']);
      const res = await off.post('/v1/sanctions/some-sanction/appeal-link', key.auth, { userId: '1' });
      expect(res.status).toBe(500);
      expect(isErrorShape(res.body)).toBe(true);
      expect(res.body.message).toMatch(/^Appeal links are off on this server: its operator must set APPEAL_LINK_SECRET .*\(reference [\w-]+\)$/);
      await withinOneMinute();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const page = await fetch(`${off.baseUrl}/appeal/${craft('s', 'u', Date.now() + 60_000)}`);
        statuses.push(page.status);
        expect(await page.text()).toContain(page.status === 429 ? 'Too many attempts' : 'Appeals are not available here');
      }
      expect(statuses).toEqual([404, 404, 404, 429]);
    } finally {
      await off.stop();
    }
  });
});
