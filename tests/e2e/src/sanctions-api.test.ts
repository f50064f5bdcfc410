import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakePlatform } from './fake-platform.js';
import { isErrorShape, runNode, System, type AppName, type Key } from './harness.js';
import { categorized, TEST_POLICY, writePolicy } from './triage-policy.js';

// The sanctions API for trusted systems (an anti-cheat): one sanction, a batch, a scheduled ban
// wave across a restart of every process, lift; idempotency under concurrent retries, scoped to the
// calling key, and 409 for a key reused with other fields; a key lifts only its own; 400 and 403.
const POLICY = {
  ...TEST_POLICY,
  categories: { ...TEST_POLICY.categories, harassment: { severity: 4, sla: 'PT8H', clause: 'Do not insult, threaten or harass other players.', publicDescription: 'Harassment', transparencyCategory: 'CYBER_VIOLENCE' } },
  ladder: { lookback: 'P1Y', steps: { cheating: [{ kind: 'ban', duration: 'P14D' }, { kind: 'ban' }] } },
};
const SECRET = 'sanctions-api-secret';
let fake: FakePlatform;
let sys: System;
let anticheat: Key;
let reader: Key;
let admin: Key;
let nextUser = 9300;
let nextKey = 0;

beforeAll(async () => {
  fake = await FakePlatform.start();
  sys = await System.start({
    env: { MAX_REPORTS_PER_DAY: '1000', TRIAGE_POLICY: writePolicy(POLICY), DECISION_WEBHOOK_URL: `${fake.url}/hooks/decisions`, DECISION_WEBHOOK_SECRET: SECRET, NOTIFY_BACKOFF_MS: '50' },
  });
  [anticheat, reader, admin] = await Promise.all([
    sys.createKey(['--name', 'vac', '--permission', 'sanctions.write', '--permission', 'sanctions.read']),
    sys.createKey(['--permission', 'sanctions.read']),
    sys.createKey(['--admin']),
  ]);
  await sys.addModerator('m1', 'alice');
});
afterAll(async () => {
  await sys?.stop();
  await fake?.stop();
});

const newUser = () => String(nextUser++);
const item = (userId: string, extra: Record<string, unknown> = {}) => ({
  userId,
  kind: 'ban',
  category: 'cheating',
  reason: 'Cheat detected',
  source: { type: 'anticheat', id: 'vac-detector-3' },
  evidence: [{ url: `https://ac.example/${userId}`, type: 'url' }],
  idempotencyKey: `det-${userId}-${nextKey++}`,
  ...extra,
});
const create = (body: unknown, key = anticheat) => sys.post('/v1/sanctions', key.auth, body);
const batch = (body: unknown, key = anticheat) => sys.post('/v1/sanctions/batch', key.auth, body);
const lift = (id: string, body: unknown, key = anticheat) => sys.post(`/v1/sanctions/${id}/lift`, key.auth, body);
const status = async (userId: string) => (await sys.get(`/v1/sanctions/${userId}`, reader.auth)).body;
const feedOf = async (userIds: string[]) => {
  const events: any[] = [];
  for (let after = '0'; ; ) {
    const page = (await sys.get(`/v1/sanctions?limit=1000&after=${after}`, reader.auth)).body;
    events.push(...page.events);
    if (page.events.length === 0) break;
    after = page.next;
  }
  return events.filter((e) => userIds.includes(e.userId));
};

describe('POST /v1/sanctions', () => {
  it('creates a sanction without a report: in the ban API, the feed and the webhook, with kind and source', async () => {
    const userId = newUser();
    await sys.addUser(userId);
    const res = await create(item(userId, { duration: 'P14D' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      created: true,
      sanction: {
        userId,
        caseId: null,
        kind: 'ban',
        blocksLogin: true,
        category: 'cheating',
        source: { type: 'anticheat', id: 'vac-detector-3' },
        evidence: [{ url: `https://ac.example/${userId}`, type: 'url' }],
        reason: 'Cheat detected',
        moderator: { id: anticheat.key, username: 'vac' },
        state: 'active',
      },
    });
    const s = res.body.sanction;
    expect(s.expiresAt - s.createdAt).toBe(14 * 86_400_000);
    expect(await status(userId)).toMatchObject({ banned: true, restrictions: ['ban'], sanctions: [{ id: s.id }] });
    const [event] = await feedOf([userId]);
    expect(event).toMatchObject({ type: 'sanction.created', sanctionId: s.id, caseId: null, kind: 'ban' });
    await sys.waitFor(async () => fake.requests('POST', 'hooks').some((r) => r.body.sanctionId === s.id), 15_000, 'the sanction webhook');
    expect(fake.requests('POST', 'hooks').find((r) => r.body.sanctionId === s.id)!.body).toMatchObject({ event: 'sanction.created', kind: 'ban', caseId: null });
    // The check's ban flag follows it (the Redis sync is an effect carried out by the worker).
    await sys.waitFor(async () => (await sys.post('/v1/reports/check', admin.auth, { userId, reporterId: 'r-check' })).body.canReport === false, 10_000, 'check refuses the banned player');
    // The history lists it.
    expect((await sys.cli(['sanctions', 'list', userId])).stdout).toContain('anticheat:vac-detector-3');
  });

  it('the same key answers the same sanction, never a second one, also under concurrent retries', async () => {
    const userId = newUser();
    const body = item(userId, { kind: 'chat', duration: 'PT1H' });
    const answers = await Promise.all(Array.from({ length: 12 }, () => create(body)));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(new Set(answers.map((a) => a.body.sanction.id)).size).toBe(1);
    expect(answers.filter((a) => a.body.created)).toHaveLength(1);
    expect((await status(userId)).sanctions).toHaveLength(1);
    expect(await feedOf([userId])).toHaveLength(1);
    expect((await create(body)).body).toMatchObject({ created: false, sanction: { id: answers[0]!.body.sanction.id } });
  });

  it("an idempotency key is the calling key's own: another system's same key sanctions its own player, and neither answers the other's", async () => {
    const [a, b] = [newUser(), newUser()];
    const other = await sys.createKey(['--name', 'eac', '--permission', 'sanctions.write']);
    const shared = `det-shared-${nextKey++}`;
    const ours = item(a, { idempotencyKey: shared, reason: 'Aimbot' });
    const theirs = item(b, { idempotencyKey: shared, reason: 'Wallhack', source: { type: 'eac', id: 'scan-1' } });
    const first = await create(ours);
    expect(first.body).toMatchObject({ created: true, sanction: { userId: a } });
    const second = await create(theirs, other);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body).toMatchObject({ created: true, sanction: { userId: b, reason: 'Wallhack', source: { type: 'eac', id: 'scan-1' }, moderator: { id: other.key, username: 'eac' } } });
    expect(await status(b)).toMatchObject({ banned: true, sanctions: [{ id: second.body.sanction.id }] });
    expect((await create(ours)).body).toMatchObject({ created: false, sanction: { id: first.body.sanction.id } });
    expect((await create(theirs, other)).body).toMatchObject({ created: false, sanction: { id: second.body.sanction.id } });
    expect((await batch({ items: [theirs] }, other)).body.results).toMatchObject([{ status: 'existed', sanction: { id: second.body.sanction.id } }]);
  });

  it('a known key with other fields is a 409 that stores nothing; the same fields still answer its sanction', async () => {
    const [userId, other] = [newUser(), newUser()];
    const body = item(userId, { duration: 'P7D' });
    const first = await create(body);
    expect(first.body.created).toBe(true);
    const changes: Record<string, unknown>[] = [
      { userId: other },
      { reason: 'Something else' },
      { duration: 'P14D' },
      { duration: undefined },
      { kind: 'chat' },
      { category: 'spam' },
      { evidence: [] },
      { source: { type: 'anticheat', id: 'vac-detector-4' } },
      { automatedDecision: 'not' },
      { illegalContent: { law: '§ 202c StGB' } },
    ];
    for (const change of changes) {
      const res = await create({ ...body, ...change });
      expect(res.status, JSON.stringify(change)).toBe(409);
      expect(isErrorShape(res.body)).toBe(true);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.message).toContain(body.idempotencyKey);
      expect(res.body.message).toContain(Object.keys(change)[0]);
    }
    expect((await status(other)).sanctions).toEqual([]);
    expect((await status(userId)).sanctions).toMatchObject([{ id: first.body.sanction.id, reason: 'Cheat detected' }]);
    expect(await feedOf([userId, other])).toHaveLength(1);
    expect((await create(body)).body).toMatchObject({ created: false, sanction: { id: first.body.sanction.id } });
  });

  it('a warning restricts nothing but is shown to the player; a chat restriction is listed', async () => {
    const userId = newUser();
    expect((await create(item(userId, { kind: 'warning', category: 'harassment', reason: 'Mind your language' }))).status).toBe(200);
    expect(await status(userId)).toMatchObject({ banned: false, restrictions: [], sanctions: [{ kind: 'warning', reason: 'Mind your language', state: 'active' }] });
    expect((await create(item(userId, { kind: 'chat', category: 'harassment' }))).status).toBe(200);
    expect(await status(userId)).toMatchObject({ banned: false, restrictions: ['chat'] });
  });

  it("counts on the ladder: a player's case proposes the step after the anti-cheat's ban", async () => {
    const userId = newUser();
    await sys.addUser(userId);
    const res = await sys.post('/v1/reports/new', admin.auth, categorized(userId, 'ladder-rep', 'cheating'));
    expect(res.status).toBe(200);
    let caseId = '';
    await sys.waitFor(async () => {
      caseId = (await sys.get('/v1/cases?limit=100', admin.auth)).body.cases.find((c: any) => c.userId === userId && c.categories.includes('cheating'))?.caseId ?? '';
      return caseId !== '';
    }, 15_000, 'the case triaged');
    const proposal = async () => (await sys.get(`/v1/cases/${caseId}`, admin.auth)).body.case.proposedSanction;
    expect(await proposal()).toMatchObject({ kind: 'ban', duration: 'P14D', offences: 0, step: 1 });
    expect((await create(item(userId, { kind: 'chat' }))).status).toBe(200);
    expect(await proposal()).toMatchObject({ kind: 'ban', duration: null, offences: 1, step: 2 });
  });

  it.each([
    [{ kind: 'jail' }, 'kind', 'warning, chat, matchmaking, ranked, ban'],
    [{ category: 'griefing' }, 'category', 'cheating, spam, other, harassment'],
    [{ idempotencyKey: undefined }, 'idempotencyKey', ''],
    [{ reason: '' }, 'reason', ''],
    [{ duration: 'P1Y' }, 'duration', ''],
    [{ source: { type: 'case', id: 'x' } }, 'source.type', ''],
    [{ source: { type: 'anticheat' } }, 'source.id', ''],
    [{ userId: 42 }, 'userId', ''],
    [{ extra: 1 }, '', ''],
  ])('400 naming the field for %j', async (patch, field, listed) => {
    const userId = newUser();
    const res = await create(item(userId, patch));
    expect(res.status).toBe(400);
    expect(isErrorShape(res.body)).toBe(true);
    if (field) expect(res.body.errors.map((e: any) => e.field)).toContain(field);
    if (listed) expect(res.body.message).toContain(listed);
    expect((await status(userId)).sanctions).toEqual([]);
  });

  it('403 without sanctions.write, 401 without a key', async () => {
    const userId = newUser();
    expect((await create(item(userId), reader)).status).toBe(403);
    expect((await batch({ items: [item(userId)] }, reader)).status).toBe(403);
    expect((await sys.request('POST', '/v1/sanctions', { body: item(userId) })).status).toBe(401);
    expect((await status(userId)).sanctions).toEqual([]);
  });
});

describe('POST /v1/sanctions/batch', () => {
  it('answers one result per item, in order: created, existed (same key), refused with the reason', async () => {
    const [a, b, c] = [newUser(), newUser(), newUser()];
    const first = item(a);
    expect((await create(first)).status).toBe(200);
    const again = item(b);
    const res = await batch({ items: [item(c), first, item(b, { kind: 'jail' }), again, { ...again }, 'not an object'].slice(0, 5) });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: any) => r.status)).toEqual(['created', 'existed', 'refused', 'created', 'existed']);
    expect(res.body.results[2]).toEqual({ status: 'refused', message: expect.stringContaining('warning, chat'), errors: [{ field: 'items.2.kind', message: expect.any(String) }] });
    expect(res.body.results[3].sanction.id).toBe(res.body.results[4].sanction.id);
    expect((await status(b)).sanctions).toHaveLength(1);
    expect((await status(c)).banned).toBe(true);
  });

  it('a known key with other fields is a conflict in its result and stores nothing; the other items go on', async () => {
    const [a, b, c, d] = [newUser(), newUser(), newUser(), newUser()];
    const first = item(a);
    expect((await create(first)).status).toBe(200);
    const fresh = item(d);
    const res = await batch({ items: [item(b), { ...first, userId: c }, first, fresh, { ...fresh, reason: 'Another reason' }] });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: any) => r.status)).toEqual(['created', 'conflict', 'existed', 'created', 'conflict']);
    expect(res.body.results[1]).toEqual({ status: 'conflict', message: expect.stringContaining(first.idempotencyKey), errors: [{ field: 'items.1.idempotencyKey', message: expect.stringMatching(/userId/) }] });
    expect(res.body.results[4].errors).toEqual([{ field: 'items.4.idempotencyKey', message: expect.stringMatching(/reason/) }]);
    expect((await status(c)).sanctions).toEqual([]);
    expect((await status(d)).sanctions).toMatchObject([{ reason: 'Cheat detected' }]);
  });

  it('concurrent retries of a whole batch create each sanction once', async () => {
    const users = Array.from({ length: 50 }, newUser);
    const body = { items: users.map((u) => item(u)) };
    const answers = await Promise.all(Array.from({ length: 6 }, () => batch(body)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    for (let i = 0; i < users.length; i++) {
      const results = answers.map((a) => a.body.results[i]);
      expect(new Set(results.map((r: any) => r.sanction.id)).size).toBe(1);
      expect(results.filter((r: any) => r.status === 'created')).toHaveLength(1);
    }
    const events = await feedOf(users);
    expect(events).toHaveLength(50);
    expect(new Set(events.map((e) => e.sanctionId)).size).toBe(50);
  });

  it('400 for more than 1,000 items, none, a bad effectiveAt, or one more than 30 days ahead', async () => {
    const users = Array.from({ length: 1001 }, (_, i) => `over-${i}`);
    const tooMany = await batch({ items: users.map((u) => item(u)) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors.map((e: any) => e.field)).toContain('items');
    expect((await batch({ items: [] })).body.errors.map((e: any) => e.field)).toContain('items');
    for (const effectiveAt of ['tomorrow', new Date(Date.now() + 31 * 86_400_000).toISOString()]) {
      const res = await batch({ items: [item(newUser())], effectiveAt });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: any) => e.field)).toContain('effectiveAt');
    }
    expect((await status('over-0')).sanctions).toEqual([]);
  });

  it('a scheduled wave: nothing enforced nor in the feed before effectiveAt, then every sanction, across a restart of every process', async () => {
    const users = Array.from({ length: 30 }, newUser);
    await sys.addUser(users[0]!);
    const effectiveAt = Date.now() + 10_000;
    const body = { items: users.map((u, i) => item(u, i % 3 === 0 ? { duration: 'P7D' } : {})), effectiveAt: new Date(effectiveAt).toISOString() };
    const res = await batch(body);
    expect(res.status).toBe(200);
    expect(res.body.results.every((r: any) => r.status === 'created' && r.sanction.state === 'scheduled' && r.sanction.effectiveAt === effectiveAt)).toBe(true);
    // A retry of the whole wave changes nothing.
    expect((await batch(body)).body.results.every((r: any) => r.status === 'existed')).toBe(true);
    // One of the wave is lifted before it starts (a false positive found in time).
    const cancelled = res.body.results[1].sanction.id;
    expect((await lift(cancelled, { reason: 'false positive' })).body).toMatchObject({ lifted: true, sanction: { state: 'lifted' } });

    expect(await feedOf(users)).toEqual([]);
    for (const u of users.slice(0, 5)) expect(await status(u)).toMatchObject({ banned: false, restrictions: [], sanctions: [] });

    // Every process stops before the wave and starts again after it.
    const apps: AppName[] = ['gateway', 'intake', 'moderation', 'notification'];
    for (const app of apps) await sys.stopApp(app);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, effectiveAt - Date.now() + 500)));
    for (const app of apps) await sys.startApp(app);

    await sys.waitFor(async () => (await feedOf(users)).length >= users.length - 1, 30_000, 'the wave in the feed');
    const events = await feedOf(users);
    expect(events).toHaveLength(users.length - 1);
    expect(new Set(events.map((e) => e.userId)).size).toBe(users.length - 1);
    expect(events.every((e) => e.type === 'sanction.created' && e.kind === 'ban' && e.at >= effectiveAt)).toBe(true);
    expect(events.some((e) => e.sanctionId === cancelled)).toBe(false);
    for (const [i, u] of users.entries()) {
      const s = await status(u);
      expect(s.banned).toBe(i !== 1);
      if (i % 3 === 0) expect(s.sanctions[0].expiresAt).toBe(effectiveAt + 7 * 86_400_000);
    }
    await sys.waitFor(async () => (await sys.post('/v1/reports/check', admin.auth, { userId: users[0], reporterId: 'r-wave' })).body.canReport === false, 10_000, 'check refuses a player of the wave');
  }, 180_000);
});

describe('POST /v1/sanctions/{sanctionId}/lift', () => {
  it('lifts once with the caller in the audit; again changes nothing; unknown is a 404; reason is required', async () => {
    const userId = newUser();
    const { sanction } = (await create(item(userId))).body;
    const first = await lift(sanction.id, { reason: 'false positive' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, lifted: true, sanction: { id: sanction.id, state: 'lifted', liftedBy: anticheat.key, liftReason: 'false positive' } });
    expect(await status(userId)).toMatchObject({ banned: false, restrictions: [] });
    expect((await status(userId)).sanctions).toMatchObject([{ id: sanction.id, state: 'lifted', liftReason: 'false positive' }]);
    const second = await lift(sanction.id, { reason: 'again' });
    expect(second.body).toMatchObject({ lifted: false, sanction: { state: 'lifted', liftedAt: first.body.sanction.liftedAt } });
    expect((await feedOf([userId])).map((e) => [e.type, e.kind])).toEqual([
      ['sanction.created', 'ban'],
      ['sanction.lifted', 'ban'],
    ]);
    expect((await lift('no-such-sanction', { reason: 'x' })).status).toBe(404);
    const missing = await lift(sanction.id, {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: any) => e.field)).toContain('reason');
    expect((await lift(sanction.id, { reason: 'x' }, reader)).status).toBe(403);
  });
});

describe('POST /v1/sanctions/{sanctionId}/lift: whose sanctions a key lifts', () => {
  it("only its own: another system's sanction and a moderator's approval are 403 unless the key holds sanctions.lift_any (admins do)", async () => {
    const userId = newUser();
    await sys.addUser(userId);
    // A moderator's approval of a report about the player (first: a banned player cannot be reported).
    const report = await sys.post('/v1/reports/new', admin.auth, categorized(userId, 'lift-rep', 'cheating'));
    expect(report.status).toBe(200);
    await sys.waitFor(async () => (await sys.get(`/v1/reports/${userId}`, admin.auth)).body.reports?.length === 1, 15_000, 'the report stored');
    const approved = await sys.post(`/v1/reports/${report.body.id}/approve`, admin.auth, { moderator: { id: 'm1' } });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const approval = (await status(userId)).sanctions.find((s: any) => s.caseId !== null);
    const ours = (await create(item(userId))).body.sanction;

    const other = await sys.createKey(['--name', 'eac', '--permission', 'sanctions.write']);
    for (const [id, key] of [[ours.id, other], [approval.id, anticheat]] as const) {
      const refused = await lift(id, { reason: 'not mine to lift' }, key);
      expect(refused.status).toBe(403);
      expect(isErrorShape(refused.body)).toBe(true);
      expect(refused.body.message).toContain('sanctions.lift_any');
    }
    expect(await status(userId)).toMatchObject({ banned: true, sanctions: [{ state: 'active' }, { state: 'active' }] });
    expect((await feedOf([userId])).map((e) => e.type)).toEqual(['sanction.created', 'sanction.created']);

    const lifter = await sys.createKey(['--name', 'support', '--permission', 'sanctions.write', '--permission', 'sanctions.lift_any']);
    expect((await lift(ours.id, { reason: 'false positive' }, lifter)).body).toMatchObject({ lifted: true, sanction: { state: 'lifted', liftedBy: lifter.key } });
    expect((await lift(approval.id, { reason: 'undone by support' }, admin)).body).toMatchObject({ lifted: true, sanction: { state: 'lifted', liftedBy: admin.key } });
    expect(await status(userId)).toMatchObject({ banned: false });
  });
});

describe('examples/anticheat-client.mjs', () => {
  it('sends a scheduled wave and follows the feed until every sanction of it is in effect', async () => {
    const users = [newUser(), newUser(), newUser()];
    const env = { PATH: process.env['PATH'], RM_URL: sys.baseUrl, RM_KEY: anticheat.auth };
    const run = await runNode('examples/anticheat-client.mjs', ['wave', '3', ...users], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('3 sanction(s) scheduled');
    expect(run.stdout).toContain('every sanction of the wave is in effect');
    for (const u of users) expect((await status(u)).banned).toBe(true);
  });
});
