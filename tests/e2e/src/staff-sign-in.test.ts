import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from './axe.js';
import { freePort, report, System, type Key } from './harness.js';
import { TestIdentityProvider } from './identity-provider.js';

// Staff sign in to the console through a real OpenID provider (oidc-provider, in this process), in
// Debian's Chromium: code + PKCE, roles from the groups claim, a session cookie, CSRF, expiry, sign-out.
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const CLIENT = { id: 'moderation-console', secret: 'test-client-secret' };
const PLAYER = '7301';
/** Reported after PLAYER is banned, for a case that stays open. */
const OTHER_PLAYER = '7302';

let sys: System;
let op: TestIdentityProvider;
let admin: Key;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: run the tests with \`npm test\`, or \`apt-get install chromium\`, or set CHROMIUM_PATH`);
  const [gatewayPort, providerPort] = [await freePort(), await freePort()];
  const gateway = `http://127.0.0.1:${gatewayPort}`;
  op = await TestIdentityProvider.start(providerPort, { ...CLIENT, redirectUri: `${gateway}/auth/callback`, postLogoutRedirectUri: `${gateway}/console/` });
  op.people.set('alice', { name: 'Alice Moderator', groups: ['ts-moderators', 'everyone'] });
  op.people.set('bob', { name: 'Bob Moderator', groups: ['ts-moderators'] });
  op.people.set('mallory', { name: 'Mallory Marketing', groups: ['marketing', 'everyone'] });
  const rolesFile = join(mkdtempSync(join(tmpdir(), 'rm-roles-')), 'roles.json');
  writeFileSync(rolesFile, JSON.stringify({ groups: { 'ts-moderators': 'moderator', 'ts-leads': ['lead'] } }));
  sys = await System.start({
    port: gatewayPort,
    env: {
      OIDC_ISSUER: op.issuer,
      OIDC_CLIENT_ID: CLIENT.id,
      OIDC_CLIENT_SECRET: CLIENT.secret,
      OIDC_REDIRECT_URL: `${gateway}/auth/callback`,
      OIDC_ROLES_FILE: rolesFile,
      OIDC_RECHECK_MS: '1500',
      // X-Forwarded-Proto believed from this machine: a request "over TLS" gets Secure cookies.
      TRUSTED_PROXIES: 'loopback',
    },
  });
  admin = await sys.createKey(['--admin']);
  await sys.addUser(PLAYER, 'wallhacker', 'Wall Hacker');
  await sys.addUser(OTHER_PLAYER, 'aimbotter', 'Aim Botter');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});
afterAll(async () => {
  await browser?.close();
  await sys?.stop();
  await op?.stop();
});

async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  // Nothing leaves 127.0.0.1 (the provider's development pages ask for a web font).
  await context.route((url) => url.hostname !== '127.0.0.1', (route) => route.abort());
  return { context, page: await context.newPage() };
}

/** From the console's sign-in page through the provider's own forms, to wherever the gateway sends the browser. */
async function signInAt(page: Page, login: string): Promise<void> {
  await page.goto(`${sys.baseUrl}/console/`);
  await page.getByRole('link', { name: "Sign in with your organisation's account" }).click();
  await atTheProvider(page, login);
}

/** The provider's own forms, from its login page to wherever the gateway sends the browser back. */
async function atTheProvider(page: Page, login: string): Promise<void> {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  // The provider may ask to let the console see the profile; either way the browser comes back.
  const consent = page.getByRole('button', { name: 'Continue' });
  const providerPort = new URL(op.issuer).port;
  await expect.poll(async () => new URL(page.url()).port !== providerPort || (await consent.isVisible()), { timeout: 15_000 }).toBe(true);
  if (new URL(page.url()).port === providerPort) await consent.click();
}

async function signedIn(login: string): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await newPage();
  await signInAt(opened.page, login);
  await opened.page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
  return opened;
}

const sessionCookie = async (context: BrowserContext) => (await context.cookies(sys.baseUrl)).find((c) => c.name === 'rm_session');

/** A request as the browser's session would make it, from outside any browser: cookie and, if given, a CSRF token. */
async function withSession(context: BrowserContext, method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const cookie = await sessionCookie(context);
  const res = await fetch(`${sys.baseUrl}${path}`, {
    method,
    headers: { ...(cookie ? { cookie: `rm_session=${cookie.value}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? null : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
}

const staffSession = async (context: BrowserContext) => (await withSession(context, 'GET', '/auth/session')).body?.['session'] as { csrfToken: string; moderator: { id: string } } | null;

describe('a moderator signed in through the identity provider', () => {
  let alice: { context: BrowserContext; page: Page };
  let caseId: string;

  it('offers only the provider sign-in: no key form', async () => {
    const { page } = await newPage();
    await page.goto(`${sys.baseUrl}/console/`);
    await page.getByRole('link', { name: "Sign in with your organisation's account" }).waitFor();
    expect(await page.getByLabel('API key').count()).toBe(0);
    await expectNoSeriousViolations(page, 'the sign-in page');
  });

  it('signs in, and the browser holds only an HttpOnly, SameSite session cookie: no token or key in storage', async () => {
    alice = await signedIn('alice');
    await alice.page.getByText('Signed in as').getByText('Alice Moderator', { exact: true }).waitFor();
    const cookie = await sessionCookie(alice.context);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    // Plain http here: not Secure (the TLS case is checked below).
    expect(cookie!.secure).toBe(false);
    const storage = await alice.page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(storage).toBe('{}{}');
    // Nothing but the session cookie: the sign-in's own cookie is gone.
    expect((await alice.context.cookies(sys.baseUrl)).map((c) => c.name).filter((n) => n.startsWith('rm_'))).toEqual(['rm_session']);
    const me = await withSession(alice.context, 'GET', '/v1/me');
    expect(me.body).toMatchObject({ moderator: { id: 'oidc:alice', username: 'Alice Moderator' } });
    expect((me.body!['key'] as { permissions: string[] }).permissions).toEqual(expect.arrayContaining(['reports.handle_reports', 'reports.view_reports']));
    expect((me.body!['key'] as { permissions: string[] }).permissions).not.toContain('privacy.manage');
  });

  it('claims and approves a case; the case and its history name the person', async () => {
    expect((await sys.post('/v1/reports/new', admin.auth, report(PLAYER, 'sso-reporter'))).status).toBe(200);
    const { page } = alice;
    const row = page.getByRole('link', { name: 'Wall Hacker', exact: true });
    await row.waitFor({ timeout: 20_000 });
    caseId = decodeURIComponent((await row.getAttribute('href'))!.replace('#/cases/', ''));
    await row.click();
    await page.getByRole('button', { name: 'Claim', exact: true }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Report claimed by Alice Moderator');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe(`Report approved: user ${PLAYER} is banned`);
    const decided = (await sys.get(`/v1/cases/${encodeURIComponent(caseId)}`, admin.auth)).body.case;
    expect(decided.state).toBe('approved');
    expect(decided.claimedBy).toEqual({ id: 'oidc:alice', username: 'Alice Moderator' });
  });

  it('refuses a state-changing call without the session\'s CSRF token, and one from another site', async () => {
    const submitted = await sys.post('/v1/reports/new', admin.auth, report(OTHER_PLAYER, 'sso-reporter'));
    expect(submitted.status).toBe(200);
    await sys.waitFor(async () => (await sys.get(`/v1/reports/${OTHER_PLAYER}`, admin.auth)).body.count === 1, 15_000, 'the report stored');
    const claim = `/v1/reports/${submitted.body.id}/claim`;
    const caseOf = async () => ((await sys.get('/v1/cases', admin.auth)).body.cases as { userId: string; state: string }[]).find((c) => c.userId === OTHER_PLAYER);
    const body = { moderator: { id: 'oidc:alice' } };
    expect((await withSession(alice.context, 'POST', claim, {}, body)).status).toBe(403);
    expect((await withSession(alice.context, 'POST', claim, { 'x-csrf-token': 'forged' }, body)).status).toBe(403);
    // A token of the real one's length in other characters is refused the same way (it was a 500).
    expect((await withSession(alice.context, 'POST', claim, { 'x-csrf-token': 'é'.repeat(43) }, body)).status).toBe(403);
    // A page on another site posts a form at the API: the browser does not send the cookie with it.
    const elsewhere = await alice.context.newPage();
    await elsewhere.route('http://attacker.test/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: `<form method="post" action="${sys.baseUrl}${claim}"><input name="moderator" value="x"></form><script>document.forms[0].submit()</script>` }),
    );
    const answered = elsewhere.waitForResponse((res) => res.url().endsWith(claim));
    await elsewhere.goto('http://attacker.test/');
    expect([401, 403]).toContain((await answered).status());
    await elsewhere.close();
    expect((await caseOf())?.state).toBe('open');
    // With the token it goes through.
    const csrf = (await staffSession(alice.context))!.csrfToken;
    expect((await withSession(alice.context, 'POST', claim, { 'x-csrf-token': csrf }, body)).status).toBe(200);
    expect((await caseOf())?.state).toBe('claimed');
  });

  it('sets Secure cookies when the request came over TLS (as the trusted proxy says)', async () => {
    const overTls = await fetch(`${sys.baseUrl}/auth/sign-in`, { redirect: 'manual', headers: { 'x-forwarded-proto': 'https' } });
    expect(overTls.status).toBe(302);
    expect(overTls.headers.get('set-cookie')).toMatch(/^rm_signin=[\w-]+; Path=\/auth; HttpOnly; SameSite=Lax; Max-Age=600; Secure$/);
    const plain = await fetch(`${sys.baseUrl}/auth/sign-in`, { redirect: 'manual' });
    expect(plain.headers.get('set-cookie')).not.toMatch(/Secure/);
    // The provider is asked for code + PKCE (S256), with a state and a nonce.
    const authorize = new URL(plain.headers.get('location')!);
    expect(authorize.origin).toBe(op.issuer);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({ response_type: 'code', code_challenge_method: 'S256', client_id: CLIENT.id });
    for (const p of ['state', 'nonce', 'code_challenge']) expect(authorize.searchParams.get(p)).toMatch(/^[\w-]{32,}$/);
  });
});

describe('who may not sign in', () => {
  it('refuses a person in no mapped group with a page that says so, and gives them no session', async () => {
    const { context, page } = await newPage();
    await signInAt(page, 'mallory');
    await page.getByRole('heading', { name: 'No access to the moderator console' }).waitFor();
    await page.getByText('You signed in as Mallory Marketing, but none of your groups').waitFor();
    await expectNoSeriousViolations(page, 'the no-access page');
    expect(await sessionCookie(context)).toBeUndefined();
  });

  /** Signs in with `tamper` changing the provider's authorization request in the gateway's redirect to it. */
  async function tamperedSignIn(tamper: (url: URL) => void): Promise<{ context: BrowserContext; page: Page }> {
    const opened = await newPage();
    // A redirect's target is not routed, so the gateway's redirect itself is rewritten.
    await opened.context.route(`${sys.baseUrl}/auth/sign-in*`, async (route) => {
      const response = await route.fetch({ maxRedirects: 0 });
      const location = new URL(response.headers()['location']!);
      tamper(location);
      await route.fulfill({ response, headers: { ...response.headers(), location: location.href } });
    });
    await signInAt(opened.page, 'bob');
    return opened;
  }

  for (const [what, tamper] of [
    ['a state the browser did not start with', (url: URL) => url.searchParams.set('state', 'forged-state-forged-state-forged-state')],
    ['an ID token for another nonce', (url: URL) => url.searchParams.set('nonce', 'forged-nonce-forged-nonce-forged-nonce')],
    ['a code issued for another PKCE challenge', (url: URL) => url.searchParams.set('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')],
  ] as const) {
    it(`refuses a callback with ${what}`, async () => {
      const { context, page } = await tamperedSignIn(tamper);
      await page.getByRole('heading', { name: 'Sign-in could not be completed' }).waitFor();
      expect(await sessionCookie(context)).toBeUndefined();
      await expectNoSeriousViolations(page, 'the sign-in-refused page');
    });
  }

  it('refuses a replayed callback, in the same browser and in another', async () => {
    const { context, page } = await newPage();
    const callbacks: string[] = [];
    page.on('request', (req) => req.url().includes('/auth/callback?') && callbacks.push(req.url()));
    await signInAt(page, 'bob');
    await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
    expect(callbacks).toHaveLength(1);
    const again = await context.newPage();
    await again.goto(callbacks[0]!);
    await again.getByRole('heading', { name: 'Sign-in could not be completed' }).waitFor();
    const { context: other, page: elsewhere } = await newPage();
    await elsewhere.goto(callbacks[0]!);
    await elsewhere.getByText('not for a sign-in this browser started').waitFor();
    // Even with the sign-in's own cookie copied over, its state was used once and is gone.
    const state = new URL(callbacks[0]!).searchParams.get('state')!;
    await other.addCookies([{ name: 'rm_signin', value: state, url: `${sys.baseUrl}/auth/` }]);
    await elsewhere.goto(callbacks[0]!);
    await elsewhere.getByText('This sign-in was already used').waitFor();
    expect(await sessionCookie(other)).toBeUndefined();
  });
});

describe('a session ends', () => {
  it('when the provider takes the person out of every mapped group, at their next request after the re-check', async () => {
    const { context, page } = await signedIn('bob');
    op.people.set('bob', { name: 'Bob Moderator', groups: ['alumni'] });
    try {
      await sys.waitFor(async () => (await withSession(context, 'GET', '/v1/me')).status === 401, 15_000, 'the session to end');
      // The console, at its next call, goes back to sign-in and says why.
      const appeals = page.getByRole('link', { name: 'Appeals', exact: true });
      if (await appeals.isVisible()) await appeals.click().catch(() => undefined);
      await page.getByText('Your sign-in ended').waitFor({ timeout: 20_000 });
      expect((await withSession(context, 'GET', '/auth/session')).body?.['session']).toBeNull();
    } finally {
      op.people.set('bob', { name: 'Bob Moderator', groups: ['ts-moderators'] });
    }
  });

  it('after its idle limit, and after its absolute limit however much it is used', async () => {
    // Gateways sharing this system's Redis, with short limits (the cookie goes to any port of 127.0.0.1).
    const idle = await sys.alongside({ apps: ['gateway'], env: { SESSION_IDLE_TIMEOUT_MS: '5000', OIDC_RECHECK_MS: '5000' } });
    const short = await sys.alongside({ apps: ['gateway'], env: { SESSION_MAX_AGE_MS: '6000', SESSION_IDLE_TIMEOUT_MS: '60000' } });
    try {
      const sessionAt = async (on: System, context: BrowserContext) => {
        const cookie = await sessionCookie(context);
        const res = await fetch(`${on.baseUrl}/auth/session`, { headers: { cookie: `rm_session=${cookie!.value}` } });
        return ((await res.json()) as { session: unknown }).session;
      };
      // Left alone (its page closed, so the console polls nothing): gone once the idle limit passes.
      const { context: left, page: leftPage } = await signedIn('alice');
      await leftPage.close();
      expect(await sessionAt(idle, left)).not.toBeNull();
      await new Promise((r) => setTimeout(r, 5_500));
      expect(await sessionAt(idle, left)).toBeNull();
      // Ended for good, not only by that gateway's limits.
      expect(await sessionAt(sys, left)).toBeNull();

      // Used every half second: still gone at the absolute limit, counted from the sign-in.
      const before = Date.now();
      const { context: used } = await signedIn('alice');
      expect(await sessionAt(short, used)).not.toBeNull();
      await sys.waitFor(async () => {
        await new Promise((r) => setTimeout(r, 500));
        return (await sessionAt(short, used)) === null;
      }, 20_000, 'the absolute limit');
      expect(Date.now() - before).toBeGreaterThanOrEqual(6_000);
    } finally {
      await idle.stop();
      await short.stop();
    }
  });

  it('at sign-out, here and at the provider', async () => {
    const { context, page } = await signedIn('alice');
    const cookie = (await sessionCookie(context))!;
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    // The provider's own sign-out page (RP-initiated logout), then back to the console.
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await page.getByRole('link', { name: "Sign in with your organisation's account" }).waitFor();
    expect(await sessionCookie(context)).toBeUndefined();
    const old = await fetch(`${sys.baseUrl}/v1/me`, { headers: { cookie: `rm_session=${cookie.value}` } });
    expect(old.status).toBe(401);
    // Signed out at the provider too: signing in again asks for the login again.
    await page.getByRole('link', { name: "Sign in with your organisation's account" }).click();
    await page.locator('input[name="login"]').waitFor();
  });

  it('refuses sign-out without the CSRF token', async () => {
    const { context } = await signedIn('bob');
    expect((await withSession(context, 'POST', '/auth/sign-out')).status).toBe(403);
    expect(await staffSession(context)).not.toBeNull();
  });
});

describe('the sign-in page', () => {
  it('returns the browser only into the console: a dot segment in `return` lands on its front page', async () => {
    const { page } = await newPage();
    await page.goto(`${sys.baseUrl}/auth/sign-in?return=${encodeURIComponent('/console/%2e%2e/metrics')}`);
    await atTheProvider(page, 'alice');
    await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/');
  });

  // Last in the file: it spends this address's sign-ins for the minute.
  it('lets one address begin a bounded number of sign-ins a minute, so nobody fills Redis with them', async () => {
    // The count is per clock minute: start well inside one, so the 32 requests share it.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await fetch(`${sys.baseUrl}/auth/sign-in`, { redirect: 'manual' })).status);
    expect(statuses.filter((s) => s === 302).length).toBeLessThanOrEqual(30);
    expect(statuses.at(-1)).toBe(429);
    const refused = await fetch(`${sys.baseUrl}/auth/sign-in`, { redirect: 'manual' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(await refused.text()).toContain('Too many sign-ins');
  });
});
