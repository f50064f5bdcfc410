import { createHmac } from 'node:crypto';
import { createStore } from '@rm/storage-factory';
import { assembleStatement, TriagePolicy } from '@rm/triage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakePlatform } from './fake-platform.js';
import { isErrorShape, System, type Key } from './harness.js';
import { categorized, TEST_POLICY, writePolicy } from './triage-policy.js';

// Appeals over HTTP (docs/appeals.md): a game server files its player's appeal; moderators claim,
// uphold or overturn it through the moderation worker. Window, ownership, duplicates and every
// refusal; the decider and the system moderator refused; an overturn lifts the sanction, takes
// back the reporters' credibility and sends sanction.lifted (cause appeal) and appeal.resolved
// exactly once each; an uphold keeps the sanction; claims expire and the SLA escalates.
const SECRET = 'appeal-webhook-secret';
const CLAIM_TTL_S = 4;
const APPEAL_SLA_S = 6;
const POLICY = { ...TEST_POLICY, claimTtl: `PT${CLAIM_TTL_S}S`, systemModeratorId: 'triage-bot', appeals: { window: 'P180D', sla: `PT${APPEAL_SLA_S}S` } };

let fake: FakePlatform;
let sys: System;
let admin: Key;
let game: Key;
let nextUser = 9100;
let nextReporter = 0;

beforeAll(async () => {
  fake = await FakePlatform.start();
  sys = await System.start({
    env: {
      MAX_REPORTS_PER_DAY: '1000',
      TRIAGE_POLICY: writePolicy(POLICY),
      DECISION_WEBHOOK_URL: `${fake.url}/hooks/decisions`,
      DECISION_WEBHOOK_SECRET: SECRET,
      NOTIFY_BACKOFF_MS: '50',
    },
  });
  admin = await sys.createKey(['--admin']);
  game = await sys.createKey(['--permission', 'appeals.submit', '--permission', 'sanctions.read']);
  await sys.addModerator('m1', 'alice');
  await sys.addModerator('m2', 'bob');
  await sys.addModerator('m3', 'carol');
  await sys.addModerator('triage-bot', 'Triage bot');
}, 120_000);
afterAll(async () => {
  await sys?.stop();
  await fake?.stop();
});

async function newUser(): Promise<string> {
  const id = String(nextUser++);
  await sys.addUser(id);
  return id;
}

/** Reports `userId` for cheating (two reporters), waits for the case, approves it as `moderator`: the case, its report and its sanction. */
async function sanctioned(moderator = 'm1', approve: Record<string, unknown> = {}): Promise<{ userId: string; caseId: string; reportId: string; sanctionId: string; reporters: string[] }> {
  const userId = await newUser();
  const reporters = [`ap-rep-${nextReporter++}`, `ap-rep-${nextReporter++}`];
  const ids: string[] = [];
  for (const r of reporters) {
    const res = await sys.post('/v1/reports/new', admin.auth, categorized(userId, r, 'cheating'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(res.body.id);
  }
  let caseId = '';
  await sys.waitFor(
    async () => {
      const c = (await sys.get('/v1/cases?limit=100', admin.auth)).body.cases?.find((x: any) => x.userId === userId && x.reportCount === 2);
      caseId = c?.caseId ?? '';
      return caseId !== '';
    },
    15_000,
    'the case stored and triaged',
  );
  const res = await sys.post(`/v1/reports/${ids[0]}/approve`, admin.auth, { moderator: { id: moderator }, reason: 'Aimbot', ...approve });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const status = (await sys.get(`/v1/sanctions/${userId}`, admin.auth)).body;
  return { userId, caseId, reportId: ids[0]!, sanctionId: status.sanctions[0].id, reporters };
}

const submit = (body: Record<string, unknown>, key: Key = game) => sys.post('/v1/appeals', key.auth, body);
const act = (appealId: string, verb: string, moderator: string, extra: Record<string, unknown> = {}) =>
  sys.post(`/v1/appeals/${appealId}/${verb}`, admin.auth, { moderator: { id: moderator }, ...extra });
const feedOf = async (sanctionId: string) => ((await sys.get('/v1/sanctions?limit=1000', admin.auth)).body.events as any[]).filter((e) => e.sanctionId === sanctionId);
const hooksOf = (sanctionId: string) => fake.requests('POST', 'hooks').filter((r) => r.body.sanctionId === sanctionId);
const reportersOf = async (caseId: string) => ((await sys.get(`/v1/cases/${caseId}`, admin.auth)).body.case.reports as any[]).map((r) => r.reporter.approved);

describe('POST /v1/appeals', () => {
  it('files an appeal (open, with the statement), and a repeat answers the same appeal', async () => {
    const s = await sanctioned();
    const first = await submit({ sanctionId: s.sanctionId, userId: s.userId, statement: 'I was not cheating; my aim is just good.' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({
      success: true,
      created: true,
      appeal: { sanctionId: s.sanctionId, userId: s.userId, caseId: s.caseId, category: 'cheating', state: 'open', statement: 'I was not cheating; my aim is just good.', claimedBy: null, automated: false, sanctionModerator: { id: 'm1', username: 'alice' }, slaBreached: false },
    });
    expect(first.body.appeal.dueAt - first.body.appeal.createdAt).toBe(APPEAL_SLA_S * 1000);
    const again = await submit({ sanctionId: s.sanctionId, userId: s.userId, statement: 'Please look again' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: false, appeal: { id: first.body.appeal.id, statement: 'I was not cheating; my aim is just good.' } });
    const list = (await sys.get(`/v1/appeals?userId=${s.userId}&state=open`, admin.auth)).body.appeals;
    expect(list.map((a: any) => a.id)).toEqual([first.body.appeal.id]);
  });

  it("refuses someone else's sanction exactly as an unknown one (404), so nothing about other players leaks", async () => {
    const s = await sanctioned();
    const other = await newUser();
    const theirs = await submit({ sanctionId: s.sanctionId, userId: other, statement: 'mine?' });
    const unknown = await submit({ sanctionId: 'no-such-sanction', userId: other, statement: 'mine?' });
    expect(theirs.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(isErrorShape(theirs.body)).toBe(true);
    expect(theirs.body.message).toBe(`User ${other} has no sanction ${s.sanctionId}`);
    expect(unknown.body.message).toBe(`User ${other} has no sanction no-such-sanction`);
    expect(theirs.body.message).not.toContain(s.userId);
  });

  it('refuses a bad body with a 400 naming the field, and a key without appeals.submit with a 403', async () => {
    const s = await sanctioned();
    const cases: [Record<string, unknown>, string][] = [
      [{ sanctionId: s.sanctionId, userId: s.userId, statement: '' }, 'statement'],
      [{ sanctionId: s.sanctionId, userId: s.userId, statement: 'x'.repeat(2001) }, 'statement'],
      [{ sanctionId: s.sanctionId, userId: s.userId }, 'statement'],
      [{ userId: s.userId, statement: 'hi' }, 'sanctionId'],
      [{ sanctionId: s.sanctionId, statement: 'hi' }, 'userId'],
      [{ sanctionId: s.sanctionId, userId: s.userId, statement: 'hi', extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await submit(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(isErrorShape(res.body)).toBe(true);
      expect(res.body.errors.map((e: any) => e.field)).toContain(field);
    }
    expect((await submit({ sanctionId: s.sanctionId, userId: s.userId, statement: 'x'.repeat(2000) })).status).toBe(200);
    const reader = await sys.createKey(['--permission', 'sanctions.read']);
    const refused = await submit({ sanctionId: s.sanctionId, userId: s.userId, statement: 'hi' }, reader);
    expect(refused.status).toBe(403);
    expect(isErrorShape(refused.body)).toBe(true);
  });

  it('refuses a lifted sanction, an expired one, and one past the appeal window, each with a 400 saying why', async () => {
    const lifted = await sanctioned();
    expect((await sys.post(`/v1/reports/${lifted.reportId}/undo`, admin.auth, { moderator: { id: 'm2' } })).status).toBe(200);
    const l = await submit({ sanctionId: lifted.sanctionId, userId: lifted.userId, statement: 'unfair' });
    expect(l.status).toBe(400);
    expect(l.body.message).toMatch(/was lifted/);

    const expiring = await sanctioned('m1', { duration: 'PT1S' });
    await sys.waitFor(async () => (await sys.get(`/v1/sanctions/${expiring.userId}`, admin.auth)).body.sanctions[0].state === 'expired', 20_000, 'the expiry');
    const e = await submit({ sanctionId: expiring.sanctionId, userId: expiring.userId, statement: 'unfair' });
    expect(e.status).toBe(400);
    expect(e.body.message).toMatch(/expired/);

    // A sanction that started 181 days ago (stored through the storage port, as a trusted system's
    // would have been then): past the P180D window. One that started 179 days ago is still open.
    const store = await createStore({ DATA_DIR: sys.dataDir, MONGODB_URL: sys.env['MONGODB_URL'], MONGODB_DB: sys.env['MONGODB_DB'] });
    const old = await newUser();
    // With its statement of reasons, as the sanctions API assembles one for a trusted system.
    const item = (id: string, at: number) => {
      const statement = assembleStatement(TriagePolicy.parse(TEST_POLICY), {
        category: 'cheating',
        kind: 'ban',
        from: at,
        until: null,
        reason: 'cheat software',
        origin: 'own_initiative',
        reports: null,
        evidence: [],
        automatedDetection: true,
        automatedDecision: 'fully',
        issuedAt: at,
      });
      return { id, userId: old, kind: 'ban', blocksLogin: true, category: 'cheating', source: { type: 'anticheat', id: 'detector' }, idempotencyKey: id, evidence: [], reason: 'cheat software', moderatorId: 'anticheat', expiresAt: null, statement, effects: [] };
    };
    try {
      for (const days of [181, 179]) {
        const at = Date.now() - days * 86_400_000;
        await store.createSanctions({ items: [item(`${old}-${days}`, at)], at, effectiveAt: null, sourceId: `${old}-${days}` });
      }
    } finally {
      await store.close();
    }
    const w = await submit({ sanctionId: `${old}-181`, userId: old, statement: 'unfair' });
    expect(w.status).toBe(400);
    expect(w.body.message).toMatch(/appeal window of sanction .* \(P180D after it started on .*\) closed on /);
    const inTime = await submit({ sanctionId: `${old}-179`, userId: old, statement: 'unfair' });
    expect(inTime.status, JSON.stringify(inTime.body)).toBe(200);
  });
});

describe('deciding appeals', () => {
  it('the moderator who decided the sanction may not claim or decide its appeal (403); the system moderator never may', async () => {
    const s = await sanctioned('m1');
    const { appeal } = (await submit({ sanctionId: s.sanctionId, userId: s.userId, statement: 'unfair' })).body;
    for (const [verb, extra] of [['claim', {}], ['uphold', { reason: 'fine' }], ['overturn', { reason: 'oops' }]] as const) {
      const res = await act(appeal.id, verb, 'm1', extra);
      expect(res.status, verb).toBe(403);
      expect(res.body.message).toMatch(/m1 decided the sanction under appeal/);
      const bot = await act(appeal.id, verb, 'triage-bot', extra);
      expect(bot.status, verb).toBe(403);
      expect(bot.body.message).toMatch(/decided by a person/);
    }
    // An automatic sanction (recorded as the system moderator): a person decides its appeal.
    const auto = await sanctioned('triage-bot');
    const autoAppeal = (await submit({ sanctionId: auto.sanctionId, userId: auto.userId, statement: 'a bot did this' })).body.appeal;
    expect(autoAppeal.automated).toBe(true);
    expect((await act(autoAppeal.id, 'overturn', 'triage-bot', { reason: 'no' })).status).toBe(403);
    const byPerson = await act(autoAppeal.id, 'uphold', 'm2', { reason: 'The detection was right' });
    expect(byPerson.status, JSON.stringify(byPerson.body)).toBe(200);
    expect(byPerson.body.appeal).toMatchObject({ state: 'upheld', decidedBy: { id: 'm2', username: 'bob' } });
  });

  it("a moderator whose bound key sanctioned through the sanctions API may not claim or decide that sanction's appeal (403)", async () => {
    const userId = await newUser();
    // One key of alice's (m1) for her tools and the console: it sanctions as a trusted system.
    const alice = await sys.createKey(['--name', 'alice-tools', '--permission', 'sanctions.write', '--permission', 'reports.handle_reports', '--moderator', 'm1']);
    const created = await sys.post('/v1/sanctions', alice.auth, { userId, kind: 'ban', category: 'cheating', reason: 'Aimbot', source: { type: 'anticheat', id: 'manual' }, idempotencyKey: `bound-${userId}` });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { appeal } = (await submit({ sanctionId: created.body.sanction.id, userId, statement: 'unfair' })).body;
    for (const [verb, extra] of [['claim', {}], ['uphold', { reason: 'fine' }], ['overturn', { reason: 'oops' }]] as const) {
      const own = await sys.post(`/v1/appeals/${appeal.id}/${verb}`, alice.auth, { moderator: { id: 'm1' }, ...extra });
      expect(own.status, verb).toBe(403);
      expect(own.body.message).toMatch(/m1 decided the sanction under appeal/);
      expect((await act(appeal.id, verb, 'm1', extra)).status, verb).toBe(403);
    }
    const byOther = await act(appeal.id, 'uphold', 'm2', { reason: 'The detection was right' });
    expect(byOther.status, JSON.stringify(byOther.body)).toBe(200);
    expect(byOther.body.appeal).toMatchObject({ state: 'upheld', decidedBy: { id: 'm2' } });
  });

  it('overturn lifts the sanction, takes back the reporters\' credibility, and sends sanction.lifted (cause appeal) and appeal.resolved exactly once each', async () => {
    const s = await sanctioned('m1');
    expect(await reportersOf(s.caseId)).toEqual([1, 1]);
    const { appeal } = (await submit({ sanctionId: s.sanctionId, userId: s.userId, statement: 'It was my brother' })).body;
    const claimed = await act(appeal.id, 'claim', 'm2');
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
    expect(claimed.body.appeal).toMatchObject({ state: 'claimed', claimedBy: { id: 'm2', username: 'bob' } });
    const other = await act(appeal.id, 'overturn', 'm3', { reason: 'no' });
    expect(other.status).toBe(403);
    expect(other.body.message).toBe('The appeal is claimed by bob');
    expect((await act(appeal.id, 'overturn', 'm2', {})).status).toBe(400);

    const res = await act(appeal.id, 'overturn', 'm2', { reason: 'The replay shows no aim assistance' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.appeal).toMatchObject({ state: 'overturned', reason: 'The replay shows no aim assistance', decidedBy: { id: 'm2' }, sanction: { id: s.sanctionId, state: 'lifted', liftedBy: 'm2', liftReason: 'The replay shows no aim assistance' } });
    expect((await act(appeal.id, 'uphold', 'm3', { reason: 'late' })).status).toBe(400);

    const status = (await sys.get(`/v1/sanctions/${s.userId}`, game.auth)).body;
    expect(status.banned).toBe(false);
    expect(await reportersOf(s.caseId)).toEqual([0, 0]);

    const events = await feedOf(s.sanctionId);
    expect(events.map((e) => e.type)).toEqual(['sanction.created', 'sanction.lifted', 'appeal.resolved']);
    expect(events[1]).toMatchObject({ cause: 'appeal', userId: s.userId });
    expect(events[2]).toMatchObject({ appeal: { id: appeal.id, outcome: 'overturned', reason: 'The replay shows no aim assistance' } });
    await sys.waitFor(async () => hooksOf(s.sanctionId).some((h) => h.body.event === 'appeal.resolved'), 15_000, 'the appeal.resolved webhook');
    await new Promise((r) => setTimeout(r, 500));
    const hooks = hooksOf(s.sanctionId);
    for (const e of events) {
      const sent = hooks.filter((h) => h.body.seq === e.seq);
      expect(sent, e.type).toHaveLength(1);
      expect(sent[0]!.body).toEqual({ ...e, event: e.type });
      expect(sent[0]!.headers['x-event-id']).toBe(`sanction-${e.seq}`);
      expect(sent[0]!.headers['x-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(sent[0]!.raw).digest('hex')}`);
    }

    // The case's audit tells the appeal's whole story.
    const story = (await sys.get(`/v1/cases/${s.caseId}`, admin.auth)).body.case.appeals;
    expect(story).toHaveLength(1);
    expect(story[0].history.map((h: any) => [h.action, h.moderator?.id ?? null, h.toState])).toEqual([
      ['submit', null, 'open'],
      ['claim', 'm2', 'claimed'],
      ['overturn', 'm2', 'overturned'],
    ]);

    const cli = await sys.cli(['case', 'history', s.reportId]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(new RegExp(`appeal ${appeal.id} of sanction ${s.sanctionId}: overturned`));
    for (const action of ['appeal.submit', 'appeal.claim', 'appeal.overturn']) expect(cli.stdout).toContain(action);

    // Counted as an overturn of m1's decision, and of the cheating category.
    const stats = (await sys.get('/v1/stats?window=PT1H', admin.auth)).body;
    expect(stats.appeals.overturned).toBeGreaterThanOrEqual(1);
    expect(stats.byModerator.find((m: any) => m.moderatorId === 'm1').appeals.overturned).toBeGreaterThanOrEqual(1);
    expect(stats.byCategory.find((c: any) => c.category === 'cheating').appeals.overturned).toBeGreaterThanOrEqual(1);
  });

  it('races have one winner: filings at once store one appeal, two overturns at once lift the sanction once', async () => {
    const s = await sanctioned('m1');
    const filings = await Promise.all([1, 2, 3, 4, 5].map((i) => submit({ sanctionId: s.sanctionId, userId: s.userId, statement: `try ${i}` })));
    expect(filings.map((f) => f.status)).toEqual([200, 200, 200, 200, 200]);
    expect(filings.filter((f) => f.body.created)).toHaveLength(1);
    expect(new Set(filings.map((f) => f.body.appeal.id)).size).toBe(1);
    const appealId = filings[0]!.body.appeal.id;
    const [a, b] = await Promise.all([act(appealId, 'overturn', 'm2', { reason: 'first' }), act(appealId, 'overturn', 'm3', { reason: 'second' })]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    expect((a.status === 400 ? a : b).body.message).toBe('The appeal is already overturned');
    const events = await feedOf(s.sanctionId);
    expect(events.map((e) => e.type)).toEqual(['sanction.created', 'sanction.lifted', 'appeal.resolved']);
    expect(await reportersOf(s.caseId)).toEqual([0, 0]);
  });

  it('uphold keeps the sanction and sends appeal.resolved once, with the reviewer\'s reason', async () => {
    const s = await sanctioned('m1');
    const { appeal } = (await submit({ sanctionId: s.sanctionId, userId: s.userId, statement: 'Too harsh' })).body;
    const res = await act(appeal.id, 'uphold', 'm3', { reason: 'Clear aimbot in the clip' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.appeal).toMatchObject({ state: 'upheld', reason: 'Clear aimbot in the clip', sanction: { state: 'active' } });
    expect((await sys.get(`/v1/sanctions/${s.userId}`, game.auth)).body.banned).toBe(true);
    expect(await reportersOf(s.caseId)).toEqual([1, 1]);
    const events = await feedOf(s.sanctionId);
    expect(events.map((e) => [e.type, e.appeal?.outcome])).toEqual([
      ['sanction.created', undefined],
      ['appeal.resolved', 'upheld'],
    ]);
    await sys.waitFor(async () => hooksOf(s.sanctionId).some((h) => h.body.event === 'appeal.resolved'), 15_000, 'the appeal.resolved webhook');
    await new Promise((r) => setTimeout(r, 500));
    expect(hooksOf(s.sanctionId).filter((h) => h.body.event === 'appeal.resolved').map((h) => h.body.appeal)).toEqual([{ id: appeal.id, outcome: 'upheld', reason: 'Clear aimbot in the clip' }]);
    // A repeat after the decision answers the decided appeal.
    expect((await submit({ sanctionId: s.sanctionId, userId: s.userId, statement: 'again' })).body).toMatchObject({ created: false, appeal: { id: appeal.id, state: 'upheld' } });
  });

  it('a claim expires after the claim TTL (released by system), and an undecided appeal is escalated once past its SLA; a decided one is not', async () => {
    const decided = await sanctioned('m1');
    const met = (await submit({ sanctionId: decided.sanctionId, userId: decided.userId, statement: 'Quick one' })).body.appeal;
    expect((await act(met.id, 'uphold', 'm2', { reason: 'Seen' })).status).toBe(200);
    const s = await sanctioned('m1');
    const { appeal } = (await submit({ sanctionId: s.sanctionId, userId: s.userId, statement: 'Please' })).body;
    expect((await act(appeal.id, 'claim', 'm2')).status).toBe(200);
    await sys.waitFor(async () => (await sys.get(`/v1/appeals/${appeal.id}`, admin.auth)).body.appeal.state === 'open', 20_000, 'the claim expired');
    const detail = (await sys.get(`/v1/appeals/${appeal.id}`, admin.auth)).body.appeal;
    expect(detail.history.map((h: any) => [h.action, h.moderator?.id ?? null])).toEqual([
      ['submit', null],
      ['claim', 'm2'],
      ['unclaim', 'system'],
    ]);
    await sys.waitFor(async () => (await sys.get(`/v1/appeals/${appeal.id}`, admin.auth)).body.appeal.slaBreached === true, 20_000, 'the SLA escalation');
    const messages = JSON.parse((await sys.cli(['messages', 'list', '--limit', '1000', '--json'])).stdout) as { channel: string; content: string }[];
    expect(messages.filter((m) => m.channel === 'escalations' && m.content.includes(appeal.id))).toHaveLength(1);
    // The appeal decided in time met its SLA (its check was due before this one's).
    expect((await sys.get(`/v1/appeals/${met.id}`, admin.auth)).body.appeal).toMatchObject({ state: 'upheld', slaBreached: false });
    expect(messages.filter((m) => m.content.includes(met.id))).toEqual([]);
  });
});

describe('GET /v1/appeals', () => {
  it('lists the queue oldest first, filtered by state and category, a page at a time by cursor; 400 on a bad cursor, 404 on an unknown appeal', async () => {
    const a = await sanctioned('m1');
    const b = await sanctioned('m1');
    const first = (await submit({ sanctionId: a.sanctionId, userId: a.userId, statement: 'one' })).body.appeal;
    const second = (await submit({ sanctionId: b.sanctionId, userId: b.userId, statement: 'two' })).body.appeal;
    const all: string[] = [];
    let after = '';
    for (let page = 0; page < 100; page++) {
      const res = await sys.get(`/v1/appeals?category=cheating&limit=1${after ? `&after=${encodeURIComponent(after)}` : ''}`, admin.auth);
      expect(res.status).toBe(200);
      all.push(...res.body.appeals.map((x: any) => x.id));
      if (res.body.next === null) break;
      after = res.body.next;
    }
    expect(new Set(all).size).toBe(all.length);
    expect(all.indexOf(first.id)).toBeLessThan(all.indexOf(second.id));
    expect(all.indexOf(first.id)).toBeGreaterThanOrEqual(0);
    expect((await sys.get('/v1/appeals?category=spam', admin.auth)).body.appeals).toEqual([]);
    // A player id of any length, as submit takes it.
    const long = await sys.get(`/v1/appeals?userId=${encodeURIComponent('é'.repeat(300))}`, admin.auth);
    expect(long.status).toBe(200);
    expect(long.body).toEqual({ success: true, appeals: [], next: null });
    const upheld = (await sys.get('/v1/appeals?state=upheld&limit=100', admin.auth)).body.appeals;
    expect(upheld.every((x: any) => x.state === 'upheld')).toBe(true);
    for (const bad of ['after=nope', 'limit=0', 'state=closed']) {
      const res = await sys.get(`/v1/appeals?${bad}`, admin.auth);
      expect(res.status, bad).toBe(400);
      expect(isErrorShape(res.body)).toBe(true);
    }
    expect((await sys.get('/v1/appeals/no-such-appeal', admin.auth)).status).toBe(404);
    expect((await act('no-such-appeal', 'claim', 'm2')).status).toBe(404);
    expect((await act(first.id, 'claim', 'nobody')).status).toBe(404);
    // A key bound to a moderator acts only as them, on appeals as on cases.
    const bound = await sys.createKey(['--permission', 'reports.handle_reports', '--moderator', 'm2']);
    const asOther = await sys.post(`/v1/appeals/${first.id}/claim`, bound.auth, { moderator: { id: 'm3' } });
    expect(asOther.status).toBe(403);
    expect(asOther.body.message).toMatch(/bound to moderator m2/);
    expect((await sys.post(`/v1/appeals/${first.id}/claim`, bound.auth, { moderator: { id: 'm2' } })).status).toBe(200);
  });
});

describe('GET /v1/transparency', () => {
  it("counts this file's appeals: every one filed, and those upheld and overturned, as the appeals list shows them", async () => {
    const listed = async (state: string) => {
      const ids: string[] = [];
      for (let after = '', page = 0; page < 100; page++) {
        const res = await sys.get(`/v1/appeals?state=${state}&limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`, admin.auth);
        ids.push(...res.body.appeals.map((x: any) => x.id));
        if (res.body.next === null) break;
        after = res.body.next;
      }
      return ids.length;
    };
    const [open, claimed, upheld, overturned] = [await listed('open'), await listed('claimed'), await listed('upheld'), await listed('overturned')];
    expect(upheld).toBeGreaterThan(0);
    expect(overturned).toBeGreaterThan(0);
    // Every appeal of this system was filed and decided within the day the file runs in.
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const res = await sys.get(`/v1/transparency?from=${from}&to=${to}`, admin.auth);
    expect(res.status).toBe(200);
    expect(res.body.appeals).toMatchObject({ received: open + claimed + upheld + overturned, upheld, overturned });
    expect(res.body.appeals.medianTimeToDecisionMs).toBeGreaterThanOrEqual(0);
  });
});
