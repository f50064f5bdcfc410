import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorShape, System, type Key } from './harness.js';
import { categorized, TEST_POLICY, writePolicy } from './triage-policy.js';

// The penalty ladder over HTTP: successive cases of one player climb their category's ladder,
// per category; lifted sanctions do not count; an override is audited with what the ladder
// proposed; the case view shows the proposal; a `sanction` rule without kind and duration takes
// the ladder's step; the lookback is honoured.
const LADDER = {
  lookback: 'P1Y',
  steps: {
    harassment: [{ kind: 'warning' }, { kind: 'chat', duration: 'P1D' }, { kind: 'ranked', duration: 'P7D' }, { kind: 'ban' }],
    cheating: [{ kind: 'ban', duration: 'P14D' }, { kind: 'ban' }],
  },
};
const POLICY = {
  ...TEST_POLICY,
  categories: { ...TEST_POLICY.categories, harassment: { severity: 4, sla: 'PT8H', clause: 'Do not insult, threaten or harass other players.', publicDescription: 'Harassment', transparencyCategory: 'CYBER_VIOLENCE' } },
  ladder: LADDER,
  // Three reporters of griefing within an hour: the rule approves with the ladder's step.
  rules: [{ id: 'grief-rule', category: 'spam', minReporters: 3, minCredibility: 0.4, window: 'PT1H', action: { type: 'sanction' } }],
  systemModeratorId: 'triage-bot',
};
const DAY = 86_400_000;

let sys: System;
let admin: Key;
let nextUser = 8100;
let nextReporter = 0;

beforeAll(async () => {
  sys = await System.start({ env: { MAX_REPORTS_PER_DAY: '1000', TRIAGE_POLICY: writePolicy({ ...POLICY, ladder: { ...LADDER, steps: { ...LADDER.steps, spam: [{ kind: 'matchmaking', duration: 'PT6H' }] } } }) } });
  admin = await sys.createKey(['--admin']);
  await sys.addModerator('m1', 'alice');
  await sys.addModerator('triage-bot', 'Triage bot');
});
afterAll(() => sys?.stop());

async function newUser(): Promise<string> {
  const id = String(nextUser++);
  await sys.addUser(id);
  return id;
}

/** Reports the player in `category`, waits for the case to be stored and triaged; returns the report and case ids. */
async function reportedCase(s: System, key: Key, userId: string, category: string): Promise<{ reportId: string; caseId: string }> {
  const res = await s.post('/v1/reports/new', key.auth, categorized(userId, `rep-${nextReporter++}`, category));
  expect(res.status).toBe(200);
  let caseId = '';
  await s.waitFor(
    async () => {
      const c = (await s.get('/v1/cases?limit=100', key.auth)).body.cases?.find((x: any) => x.userId === userId && x.categories?.includes(category));
      caseId = c?.caseId ?? '';
      return caseId !== '';
    },
    15_000,
    'the case triaged',
  );
  return { reportId: res.body.id, caseId };
}

async function approve(s: System, key: Key, reportId: string, extra: Record<string, unknown> = {}) {
  await s.post(`/v1/reports/${reportId}/claim`, key.auth, { moderator: { id: 'm1' } });
  const res = await s.post(`/v1/reports/${reportId}/approve`, key.auth, { moderator: { id: 'm1' }, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res;
}

const status = async (s: System, key: Key, userId: string) => (await s.get(`/v1/sanctions/${userId}`, key.auth)).body;
const proposal = async (s: System, key: Key, caseId: string) => (await s.get(`/v1/cases/${caseId}`, key.auth)).body.case.proposedSanction;

describe('the penalty ladder', () => {
  // (A banned player cannot be reported again, so the last step's repetition is shown by the
  // lifted-ban case below and by the unit tests of packages/triage.)
  it("climbs the category's steps over a player's successive cases: warning, chat 1 day, ranked 7 days, permanent ban", async () => {
    const userId = await newUser();
    const expected = [
      { kind: 'warning', duration: null, step: 1, restrictions: [], banned: false },
      { kind: 'chat', duration: 'P1D', step: 2, restrictions: ['chat'], banned: false },
      { kind: 'ranked', duration: 'P7D', step: 3, restrictions: ['chat', 'ranked'], banned: false },
      { kind: 'ban', duration: null, step: 4, restrictions: ['ban', 'chat', 'ranked'], banned: true },
    ];
    for (const [offences, want] of expected.entries()) {
      const { reportId, caseId } = await reportedCase(sys, admin, userId, 'harassment');
      // The case view shows the step before the moderator approves.
      expect(await proposal(sys, admin, caseId)).toEqual({ category: 'harassment', kind: want.kind, label: expect.any(String), duration: want.duration, offences, step: want.step });
      const answer = await approve(sys, admin, reportId);
      // The spec'd answer is unchanged.
      expect(Object.keys(answer.body.data).sort()).toEqual(['hideUsername', 'message', 'moderator', 'reportId', 'reportedUser', 'reports']);
      const body = await status(sys, admin, userId);
      const [newest] = body.sanctions;
      expect(newest).toMatchObject({ kind: want.kind, category: 'harassment', source: { type: 'case', id: caseId }, ladder: { offences, overridden: false } });
      expect(newest.expiresAt === null ? null : newest.expiresAt - newest.createdAt).toBe(want.duration === null ? null : want.duration === 'P1D' ? DAY : 7 * DAY);
      expect([...body.restrictions].sort()).toEqual(want.restrictions);
      expect(body.banned).toBe(want.banned);
    }
  });

  it('keeps a ladder per category: a cheating case starts at its own first step whatever the harassment offences', async () => {
    const userId = await newUser();
    for (let i = 0; i < 2; i++) await approve(sys, admin, (await reportedCase(sys, admin, userId, 'harassment')).reportId);
    const { reportId, caseId } = await reportedCase(sys, admin, userId, 'cheating');
    expect(await proposal(sys, admin, caseId)).toMatchObject({ category: 'cheating', kind: 'ban', duration: 'P14D', offences: 0, step: 1 });
    await approve(sys, admin, reportId);
    expect((await status(sys, admin, userId)).sanctions[0]).toMatchObject({ kind: 'ban', category: 'cheating', expiresAt: expect.any(Number) });
  });

  it('does not count lifted sanctions: a lifted warning leaves the player on the first step', async () => {
    const userId = await newUser();
    await approve(sys, admin, (await reportedCase(sys, admin, userId, 'harassment')).reportId);
    const [warning] = (await status(sys, admin, userId)).sanctions;
    expect(warning.kind).toBe('warning');
    expect((await sys.cli(['sanctions', 'lift', warning.id, '--moderator', 'm1', '--reason', 'appeal accepted'])).code).toBe(0);
    const { reportId, caseId } = await reportedCase(sys, admin, userId, 'harassment');
    expect(await proposal(sys, admin, caseId)).toMatchObject({ kind: 'warning', offences: 0, step: 1 });
    await approve(sys, admin, reportId);
    expect((await status(sys, admin, userId)).sanctions.map((s: any) => [s.kind, s.state])).toEqual([
      ['warning', 'active'],
      ['warning', 'lifted'],
    ]);
  });

  it('an override names kind and duration; the sanction records what the ladder proposed', async () => {
    const userId = await newUser();
    const { reportId } = await reportedCase(sys, admin, userId, 'harassment');
    await approve(sys, admin, reportId, { kind: 'matchmaking', duration: 'PT12H', reason: 'Leaving matches' });
    const body = await status(sys, admin, userId);
    expect(body.sanctions[0]).toMatchObject({
      kind: 'matchmaking',
      reason: 'Leaving matches',
      blocksLogin: false,
      ladder: { offences: 0, proposed: { kind: 'warning', durationMs: null }, overridden: true },
    });
    expect(body.sanctions[0].expiresAt - body.sanctions[0].createdAt).toBe(12 * 3_600_000);
    expect(body.restrictions).toEqual(['matchmaking']);
    expect(body.banned).toBe(false);
    // The override counts as an offence: the next case proposes step 2.
    expect(await proposal(sys, admin, (await reportedCase(sys, admin, userId, 'harassment')).caseId)).toMatchObject({ kind: 'chat', offences: 1, step: 2 });
  });

  it('a kind without login blocking does not mark the player banned for check; a ban does', async () => {
    const userId = await newUser();
    await approve(sys, admin, (await reportedCase(sys, admin, userId, 'harassment')).reportId, { kind: 'chat' });
    const canReport = async () => (await sys.post('/v1/reports/check', admin.auth, { userId, reporterId: `fresh-${nextReporter++}` })).body.canReport as boolean;
    await sys.waitFor(async () => (await status(sys, admin, userId)).restrictions.includes('chat'), 10_000, 'the chat restriction');
    expect(await canReport()).toBe(true);
    expect((await sys.get(`/v1/reports/${userId}`, admin.auth)).body.reports[0].banned).toBe(false);
    await approve(sys, admin, (await reportedCase(sys, admin, userId, 'cheating')).reportId);
    await sys.waitFor(async () => !(await canReport()), 10_000, 'check refuses the banned player');
  });

  it('approve with an unknown kind is a 400 naming kind and listing the known ones', async () => {
    const userId = await newUser();
    const { reportId } = await reportedCase(sys, admin, userId, 'harassment');
    await sys.post(`/v1/reports/${reportId}/claim`, admin.auth, { moderator: { id: 'm1' } });
    const res = await sys.post(`/v1/reports/${reportId}/approve`, admin.auth, { moderator: { id: 'm1' }, kind: 'jail' });
    expect(res.status).toBe(400);
    expect(isErrorShape(res.body)).toBe(true);
    expect(res.body.errors).toEqual([{ field: 'kind', message: expect.stringContaining('warning, chat, matchmaking, ranked, ban') }]);
    expect((await status(sys, admin, userId)).sanctions).toEqual([]);
  });

  it('a sanction rule naming neither kind nor duration takes the ladder’s step, with the rule as its source', async () => {
    const userId = await newUser();
    // At once, so they usually join the case in one intake batch: the case's first triage then fires
    // the rule before any triage of it is stored, and the approval must still know the category.
    const sent = await Promise.all(['g1', 'g2', 'g3'].map((reporter) => sys.post('/v1/reports/new', admin.auth, categorized(userId, `${reporter}-${userId}`, 'spam'))));
    expect(sent.map((r) => r.status)).toEqual([200, 200, 200]);
    await sys.waitFor(async () => (await status(sys, admin, userId)).sanctions.length > 0, 20_000, 'the rule’s approval');
    const [s] = (await status(sys, admin, userId)).sanctions;
    expect(s).toMatchObject({ kind: 'matchmaking', category: 'spam', source: { type: 'rule', id: 'grief-rule' }, moderator: { id: 'triage-bot' }, ladder: { offences: 0, overridden: false } });
    expect(s.expiresAt - s.createdAt).toBe(6 * 3_600_000);
  });
});

describe('the lookback', () => {
  let short: System;
  let key: Key;
  beforeAll(async () => {
    short = await System.start({ env: { MAX_REPORTS_PER_DAY: '1000', TRIAGE_POLICY: writePolicy({ ...POLICY, rules: [], ladder: { ...LADDER, lookback: 'PT4S' } }) } });
    key = await short.createKey(['--admin']);
    await short.addModerator('m1', 'alice');
  });
  afterAll(() => short?.stop());

  it('counts only offences within it: a warning older than the lookback no longer moves the player up', async () => {
    const userId = '8999';
    await short.addUser(userId);
    await approve(short, key, (await reportedCase(short, key, userId, 'harassment')).reportId);
    const second = await reportedCase(short, key, userId, 'harassment');
    expect(await proposal(short, key, second.caseId)).toMatchObject({ kind: 'chat', offences: 1 });
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    expect(await proposal(short, key, second.caseId)).toMatchObject({ kind: 'warning', offences: 0, step: 1 });
    await approve(short, key, second.reportId);
    expect((await status(short, key, userId)).sanctions.map((s: any) => s.kind)).toEqual(['warning', 'warning']);
  });
});
