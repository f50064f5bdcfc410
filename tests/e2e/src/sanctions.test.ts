import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakePlatform } from './fake-platform.js';
import { isErrorShape, report, System, type Key } from './harness.js';

// Sanctions over HTTP and the CLI: approve with duration and reason, the ban API, the feed, undo
// lifting only its own case's sanction, expiry by a delayed job, lift by hand, the webhook.
const SECRET = 'sanction-webhook-secret';
let fake: FakePlatform;
let sys: System;
let admin: Key;
let reader: Key;
let submitterOnly: Key;
let nextUser = 7000;
let nextReporter = 0;

beforeAll(async () => {
  fake = await FakePlatform.start();
  sys = await System.start({
    env: { MAX_REPORTS_PER_DAY: '1000', DECISION_WEBHOOK_URL: `${fake.url}/hooks/decisions`, DECISION_WEBHOOK_SECRET: SECRET, NOTIFY_BACKOFF_MS: '50' },
  });
  [admin, reader, submitterOnly] = await Promise.all([
    sys.createKey(['--admin']),
    sys.createKey(['--permission', 'sanctions.read']),
    sys.createKey(['--permission', 'reports.submit_report']),
  ]);
  await sys.addModerator('m1', 'alice');
  await sys.addModerator('m2', 'bob');
});
afterAll(async () => {
  await sys?.stop();
  await fake?.stop();
});

async function newUser(): Promise<string> {
  const id = String(nextUser++);
  await sys.addUser(id);
  return id;
}

/** Submits one report about the user and waits until it is stored; returns its id. */
async function reported(userId: string): Promise<string> {
  const res = await sys.post('/v1/reports/new', admin.auth, report(userId, `rep-${nextReporter++}`));
  expect(res.status).toBe(200);
  await sys.waitFor(async () => (await sys.get(`/v1/reports/${userId}`, admin.auth)).body.reports?.some((r: any) => r.repid === res.body.id), 15_000, 'report stored');
  return res.body.id as string;
}

async function approve(reportId: string, extra: Record<string, unknown> = {}) {
  await sys.post(`/v1/reports/${reportId}/claim`, admin.auth, { moderator: { id: 'm1' } });
  return sys.post(`/v1/reports/${reportId}/approve`, admin.auth, { moderator: { id: 'm1' }, ...extra });
}

const status = async (userId: string) => (await sys.get(`/v1/sanctions/${userId}`, reader.auth)).body;
const feed = async (query = '') => sys.get(`/v1/sanctions${query}`, reader.auth);
const canReport = async (userId: string) => (await sys.post('/v1/reports/check', admin.auth, { userId, reporterId: `fresh-${nextReporter++}` })).body.canReport as boolean;

describe('POST /v1/reports/{id}/approve with duration and reason', () => {
  it('answers exactly as before, and creates a temporary sanction shown by GET /v1/sanctions/{userId}', async () => {
    const userId = await newUser();
    const reportId = await reported(userId);
    const res = await approve(reportId, { duration: 'P7D', reason: 'Aimbot in ranked' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['hideUsername', 'message', 'moderator', 'reportId', 'reportedUser', 'reports']);

    const body = await status(userId);
    expect(body).toEqual({
      success: true,
      userId,
      banned: true,
      restrictions: ['ban'],
      sanctions: [
        {
          id: expect.any(String),
          userId,
          caseId: expect.any(String),
          kind: 'ban',
          blocksLogin: true,
          category: 'other',
          source: { type: 'case', id: body.sanctions[0].caseId },
          // The moderator named a duration: an override of the ladder (no ladder here: a permanent ban).
          ladder: { offences: 0, proposed: { kind: 'ban', durationMs: null }, overridden: true },
          reason: 'Aimbot in ranked',
          moderator: { id: 'm1', username: 'alice' },
          createdAt: expect.any(Number),
          expiresAt: body.sanctions[0].createdAt + 7 * 86_400_000,
          state: 'active',
          // Its statement of reasons (tests/e2e/src/statements.test.ts checks its content).
          statement: expect.objectContaining({ ground: expect.objectContaining({ type: 'terms' }), restriction: expect.objectContaining({ kind: 'ban', until: body.sanctions[0].expiresAt }) }),
        },
      ],
    });
    expect((await sys.get(`/v1/reports/${userId}`, admin.auth)).body.reports[0].banned).toBe(true);
    await sys.waitFor(async () => !(await canReport(userId)), 10_000, 'check refuses the banned player');
  });

  it.each([['P1Y'], ['P1W'], ['PT'], ['P'], ['PT1.5S'], ['7 days'], ['P0D'], [''], [7]])('400 with errors for duration %j', async (duration) => {
    const userId = await newUser();
    const reportId = await reported(userId);
    const res = await approve(reportId, { duration });
    expect(res.status).toBe(400);
    expect(isErrorShape(res.body)).toBe(true);
    expect(res.body.errors.map((e: any) => e.field)).toContain('duration');
    expect((await status(userId)).banned).toBe(false);
  });

  it('400 for a reason too long', async () => {
    const userId = await newUser();
    const res = await approve(await reported(userId), { reason: 'x'.repeat(501) });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: any) => e.field)).toContain('reason');
  });
});

describe('GET /v1/sanctions/{userId}', () => {
  it('an unknown or never-sanctioned player is not banned', async () => {
    expect(await status('never-seen-player')).toEqual({ success: true, userId: 'never-seen-player', banned: false, restrictions: [], sanctions: [] });
  });

  it('needs sanctions.read: 401 without a key, 403 without the permission; admin keys hold it', async () => {
    expect((await sys.request('GET', '/v1/sanctions/1')).status).toBe(401);
    const refused = await sys.get('/v1/sanctions/1', submitterOnly.auth);
    expect(refused.status).toBe(403);
    expect(isErrorShape(refused.body)).toBe(true);
    expect((await sys.get('/v1/sanctions/1', admin.auth)).status).toBe(200);
    expect((await sys.get('/v1/sanctions', submitterOnly.auth)).status).toBe(403);
  });

  it('undo of one approval lifts only that case\'s sanction: another case\'s stays active', async () => {
    const userId = await newUser();
    const first = await reported(userId);
    expect((await approve(first)).status).toBe(200);
    const [s1] = (await status(userId)).sanctions;
    // Lifted by hand, so the player can be reported again and a second case approved.
    expect((await sys.cli(['sanctions', 'lift', s1.id, '--moderator', 'm2'])).code).toBe(0);
    await sys.waitFor(async () => canReport(userId), 20_000, 'the player reportable again');
    const second = await reported(userId);
    expect((await approve(second, { reason: 'again' })).status).toBe(200);
    const undo = await sys.post(`/v1/reports/${first}/undo`, admin.auth, { moderator: { id: 'm1' } });
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);

    const body = await status(userId);
    expect(body.banned).toBe(true);
    expect(body.sanctions.map((s: any) => [s.reason ?? null, s.state, s.liftedBy ?? null])).toEqual([
      ['again', 'active', null],
      [null, 'lifted', 'm2'],
    ]);
    expect(await canReport(userId)).toBe(false);
    expect((await sys.get(`/v1/reports/${userId}`, admin.auth)).body.reports[0].banned).toBe(true);
  });

  it('undo of the only approval lifts its sanction: not banned', async () => {
    const userId = await newUser();
    const reportId = await reported(userId);
    expect((await approve(reportId)).status).toBe(200);
    expect((await sys.post(`/v1/reports/${reportId}/undo`, admin.auth, { moderator: { id: 'm2' } })).status).toBe(200);
    const body = await status(userId);
    expect(body.banned).toBe(false);
    expect(body.sanctions[0]).toMatchObject({ state: 'lifted', liftedBy: 'm2', liftedAt: expect.any(Number) });
  });
});

describe('CLI sanctions list and lift', () => {
  it('lists a player\'s sanctions and lifts one by hand; the player is then not banned anywhere', async () => {
    const userId = await newUser();
    expect((await approve(await reported(userId))).status).toBe(200);
    const listed = await sys.cli(['sanctions', 'list', userId, '--json']);
    expect(listed.code).toBe(0);
    const [s] = JSON.parse(listed.stdout);
    expect(s).toMatchObject({ userId, state: 'active', moderatorId: 'm1' });

    const lifted = await sys.cli(['sanctions', 'lift', s.id, '--moderator', 'm2', '--reason', 'appeal accepted']);
    expect(lifted.code, lifted.stderr).toBe(0);
    expect((await status(userId)).sanctions[0]).toMatchObject({ id: s.id, state: 'lifted', liftedBy: 'm2' });
    await sys.waitFor(async () => canReport(userId), 15_000, 'check accepts the player again');
    expect((await sys.get(`/v1/reports/${userId}`, admin.auth)).body.reports[0].banned).toBe(false);

    const again = await sys.cli(['sanctions', 'lift', s.id, '--moderator', 'm2']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/lifted already/);
    expect((await sys.cli(['sanctions', 'lift', 'no-such-sanction', '--moderator', 'm2'])).code).toBe(1);
    expect((await sys.cli(['sanctions', 'lift', s.id, '--moderator', 'nobody'])).code).toBe(1);
    expect((await sys.cli(['sanctions', 'list', userId])).stdout).toMatch(/lifted/);
  });
});

describe('expiry', () => {
  it('a temporary sanction expires on its own: state expired, a feed event, not banned any more', async () => {
    const userId = await newUser();
    expect((await approve(await reported(userId), { duration: 'PT2S' })).status).toBe(200);
    expect((await status(userId)).banned).toBe(true);
    await sys.waitFor(async () => (await status(userId)).banned === false, 20_000, 'the sanction expired');
    const [s] = (await status(userId)).sanctions;
    expect(s.state).toBe('expired');
    const events = (await feed('?limit=1000')).body.events.filter((e: any) => e.sanctionId === s.id);
    expect(events.map((e: any) => e.type)).toEqual(['sanction.created', 'sanction.expired']);
    await sys.waitFor(async () => canReport(userId), 15_000, 'check accepts the player again');
  });
});

describe('GET /v1/sanctions (the feed)', () => {
  it('pages every change once, in seq order, with next; an empty page keeps the cursor', async () => {
    const all = (await feed('?limit=1000')).body;
    expect(all.success).toBe(true);
    expect(all.events.length).toBeGreaterThan(3);
    all.events.slice(1).forEach((e: any, i: number) => expect(e.seq).toBeGreaterThan(all.events[i].seq));
    expect(Object.keys(all.events[0]).sort()).toEqual(['at', 'caseId', 'expiresAt', 'kind', 'sanctionId', 'seq', 'statement', 'type', 'userId']);

    const paged: any[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = (await feed(`?limit=2${cursor ? `&after=${cursor}` : ''}`)).body;
      if (page.events.length === 0) {
        expect(page.next).toBe(cursor);
        break;
      }
      paged.push(...page.events);
      cursor = page.next;
    }
    expect(paged.slice(0, all.events.length)).toEqual(all.events);
    expect((await feed()).body.events.length).toBe(Math.min(100, paged.length));
  });

  it('a full page is the same bytes for every reader, with an ETag (304 when it matches) and ten minutes of cache life; a page still filling is not cached', async () => {
    const head = (await feed('?limit=1000')).body;
    expect(head.events.length).toBeGreaterThan(2);
    const url = `${sys.baseUrl}/v1/sanctions?limit=2`;
    const first = await fetch(url, { headers: { authorization: admin.auth } });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"feed-/);
    // Ten minutes: an erasure may rewrite a page's personal data, and shows within that time.
    expect(first.headers.get('cache-control')).toBe('private, max-age=600');
    const body = await first.text();
    const again = await fetch(url, { headers: { authorization: admin.auth } });
    expect(await again.text()).toBe(body);
    expect(again.headers.get('etag')).toBe(etag);
    const unchanged = await fetch(url, { headers: { authorization: admin.auth, 'if-none-match': etag! } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get('content-length')).toBeNull();
    // As RFC 9110 reads If-None-Match: a weak tag, a list, or `*` match too; another tag does not.
    for (const header of [`W/${etag}`, `"other", ${etag}`, '*']) {
      expect((await fetch(url, { headers: { authorization: admin.auth, 'if-none-match': header } })).status, header).toBe(304);
    }
    expect((await fetch(url, { headers: { authorization: admin.auth, 'if-none-match': '"other"' } })).status).toBe(200);
    // The head: fewer events than asked, so later events may still join it.
    const tail = await fetch(`${sys.baseUrl}/v1/sanctions?limit=1000&after=${head.events.at(-2).seq}`, { headers: { authorization: admin.auth } });
    expect(((await tail.json()) as any).events).toHaveLength(1);
    expect(tail.headers.get('etag')).toBeNull();
    expect(tail.headers.get('cache-control')).toBe('no-cache');
    // A key without sanctions.read is refused before any page is served, cached or not.
    expect((await fetch(url, { headers: { authorization: 'rk_nope:nope' } })).status).toBe(401);
  });

  it.each([['?after=abc', 'after'], ['?after=-1', 'after'], ['?after=1.5', 'after'], ['?limit=0', 'limit'], ['?limit=1001', 'limit'], ['?limit=x', 'limit'], ['?limit=0x10', 'limit'], ['?limit=1e2', 'limit'], ['?other=1', 'other']])(
    '400 for %s',
    async (query, field) => {
      const res = await feed(query);
      expect(res.status).toBe(400);
      expect(isErrorShape(res.body)).toBe(true);
      // No body, so no `errors` (section 7): the message names the parameter.
      expect(res.body.errors).toBeUndefined();
      expect(res.body.message).toContain(field);
      // Said once, whichever of its checks the value fails.
      expect(res.body.message.split(`${field}:`).length).toBe(2);
    },
  );

  it('the webhook sends each sanction change with its seq, signed, X-Event-Id sanction-<seq>', async () => {
    const userId = await newUser();
    expect((await approve(await reported(userId))).status).toBe(200);
    const created = (await feed('?limit=1000')).body.events.find((e: any) => e.userId === userId && e.type === 'sanction.created');
    await sys.waitFor(async () => fake.requests('POST', 'hooks').some((r) => r.body.seq === created.seq), 15_000, 'the sanction webhook');
    const hooks = fake.requests('POST', 'hooks').filter((r) => r.body.seq === created.seq);
    expect(hooks).toHaveLength(1);
    expect(hooks[0]!.body).toEqual({ ...created, event: 'sanction.created' });
    expect(hooks[0]!.headers['x-event-id']).toBe(`sanction-${created.seq}`);
    expect(hooks[0]!.headers['x-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(hooks[0]!.raw).digest('hex')}`);
  });
});
