import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS, isErrorShape, runNode, System, type Key } from './harness.js';
import { categorized, TEST_POLICY, writePolicy } from './triage-policy.js';

let sys: System;
let submitter: Key;
let handler: Key;
let viewer: Key;
let nextUser = 7000;
let nextReporter = 0;

beforeAll(async () => {
  sys = await System.start({ env: { MAX_REPORTS_PER_DAY: '1000', TRIAGE_POLICY: writePolicy(TEST_POLICY) } });
  [submitter, handler, viewer] = await Promise.all([
    sys.createKey(['--permission', 'reports.submit_report']),
    sys.createKey(['--permission', 'reports.handle_reports']),
    sys.createKey(['--permission', 'reports.view_reports']),
  ]);
  await sys.addModerator('m1', 'alice');
});
afterAll(() => sys?.stop());

const newReporter = () => `tr-${nextReporter++}`;

/** Submits reports about a new user, one per [reporter, category]; returns the user and report ids. */
async function reportUser(reports: [reporter: string, category: string][]): Promise<{ userId: string; ids: string[] }> {
  const userId = String(nextUser++);
  await sys.addUser(userId);
  const ids: string[] = [];
  for (const [reporter, category] of reports) {
    const res = await sys.post('/v1/reports/new', submitter.auth, categorized(userId, reporter, category));
    expect(res.status).toBe(200);
    ids.push(res.body.id);
  }
  return { userId, ids };
}

/** Lists cases (every page it needs) and finds the user's; waits until it shows `reportCount` reports. */
async function caseOf(userId: string, reportCount: number, query = ''): Promise<any> {
  let found: any;
  await sys.waitFor(
    async () => {
      const res = await sys.get(`/v1/cases?limit=100${query}`, viewer.auth);
      found = res.body.cases?.find((c: any) => c.userId === userId);
      return found?.reportCount === reportCount;
    },
    15_000,
    `the case of user ${userId} triaged with ${reportCount} report(s)`,
  );
  return found;
}

const detail = async (caseId: string) => (await sys.get(`/v1/cases/${caseId}`, viewer.auth)).body.case;
const act = (action: string, reportId: string) => sys.post(`/v1/reports/${reportId}/${action}`, handler.auth, { moderator: { id: 'm1' } });
const messages = async () => JSON.parse((await sys.cli(['messages', 'list', '--limit', '1000', '--json'])).stdout) as { channel: string; kind: string; content: string }[];

/** Reporters with one approved case each: credibility (1 + 1) / (1 + 0 + 2) = 2/3. */
async function credibleReporters(n: number): Promise<string[]> {
  const reporters = Array.from({ length: n }, newReporter);
  const { userId, ids } = await reportUser(reporters.map((r) => [r, 'spam']));
  await caseOf(userId, n);
  expect((await act('approve', ids[0]!)).status).toBe(200);
  return reporters;
}

describe('GET /v1/cases', () => {
  it('lists open cases by priority with the summary fields; priority = 10 × severity + 4 × Σ credibility', async () => {
    const spam = await reportUser([[newReporter(), 'spam']]);
    const cheat = await reportUser([
      [newReporter(), 'cheating'],
      [newReporter(), 'Cheating '],
    ]);
    const low = await caseOf(spam.userId, 1);
    const high = await caseOf(cheat.userId, 2);
    expect(high).toEqual({
      caseId: expect.any(String),
      userId: cheat.userId,
      player: { name: `player${cheat.userId}`, displayName: `Player ${cheat.userId}` },
      state: 'open',
      priority: 10 * 5 + 4 * (0.5 + 0.5),
      reportCount: 2,
      distinctReporters: 2,
      categories: ['cheating'],
      claimedBy: null,
      openedAt: expect.any(Number),
      lastReportAt: expect.any(Number),
      flags: [],
    });
    expect(low.priority).toBe(10 * 1 + 4 * 0.5);
    const listed = (await sys.get('/v1/cases?limit=100', viewer.auth)).body;
    expect(listed).toMatchObject({ success: true, page: 1, limit: 100 });
    const order = listed.cases.map((c: any) => c.caseId);
    expect(order.indexOf(high.caseId)).toBeLessThan(order.indexOf(low.caseId));
    const priorities = listed.cases.map((c: any) => c.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => b - a));
  });

  it('sorts by oldest and newest, filters by category and state, pages with a total count', async () => {
    const first = await reportUser([[newReporter(), 'spam']]);
    const second = await reportUser([[newReporter(), 'spam']]);
    const a = await caseOf(first.userId, 1);
    const b = await caseOf(second.userId, 1);
    const ids = async (q: string) => (await sys.get(`/v1/cases?limit=100&${q}`, viewer.auth)).body.cases.map((c: any) => c.caseId);
    const oldest = await ids('sort=oldest');
    expect(oldest.indexOf(a.caseId)).toBeLessThan(oldest.indexOf(b.caseId));
    const newest = await ids('sort=newest');
    expect(newest.indexOf(b.caseId)).toBeLessThan(newest.indexOf(a.caseId));
    expect(await ids('category=cheating')).not.toContain(a.caseId);
    expect(await ids('category=spam')).toContain(a.caseId);

    expect((await act('claim', first.ids[0]!)).status).toBe(200);
    await sys.waitFor(async () => (await ids('state=claimed')).includes(a.caseId), 15_000, 'claimed case listed');
    const claimed = (await sys.get('/v1/cases?state=claimed&limit=100', viewer.auth)).body.cases.find((c: any) => c.caseId === a.caseId);
    expect(claimed.claimedBy).toEqual({ id: 'm1', username: 'alice' });
    expect(await ids('state=open')).not.toContain(a.caseId);
    // Without state: open and claimed alike.
    expect(await ids('')).toEqual(expect.arrayContaining([a.caseId, b.caseId]));

    const all = (await sys.get('/v1/cases?limit=100', viewer.auth)).body;
    const page2 = (await sys.get('/v1/cases?limit=1&page=2', viewer.auth)).body;
    expect(page2).toMatchObject({ page: 2, limit: 1, count: all.count });
    expect(page2.cases.map((c: any) => c.caseId)).toEqual([all.cases[1].caseId]);
  });

  it('answers 400 in the error shape for a bad parameter, 401 without a key, 403 without reports.view_reports', async () => {
    for (const q of ['sort=loudest', 'state=closed', 'page=0', 'page=0x10', 'limit=101', 'color=red', 'category=', 'category=zzz', 'category=constructor', 'flag=x']) {
      const res = await sys.get(`/v1/cases?${q}`, viewer.auth);
      expect(res.status, q).toBe(400);
      expect(isErrorShape(res.body), q).toBe(true);
      expect(res.body.message, q).toContain(q.split('=')[0]);
    }
    expect((await sys.request('GET', '/v1/cases')).status).toBe(401);
    const res = await sys.get('/v1/cases', submitter.auth);
    expect(res.status).toBe(403);
    expect(isErrorShape(res.body)).toBe(true);
  });
});

describe('GET /v1/cases/{caseId}', () => {
  it('shows the reports with answers, evidence, category and the reporter’s credibility; decisions; the ban', async () => {
    const reporter = newReporter();
    const { userId, ids } = await reportUser([[reporter, 'cheating']]);
    const listed = await caseOf(userId, 1);
    const before = await detail(listed.caseId);
    expect(before).toMatchObject({ caseId: listed.caseId, userId, state: 'open', decisions: [], sanctions: [] });
    expect(before.reports).toEqual([
      {
        id: ids[0],
        receivedAt: expect.any(Number),
        reportType: null,
        category: 'cheating',
        answers: categorized(userId, reporter, 'cheating').answers,
        evidence: categorized(userId, reporter, 'cheating').evidence,
        // Nothing asked to be kept (no createEvidence): no evidence items.
        evidenceItems: [],
        reporter: { id: reporter, platform: 'gameplatform', approved: 0, dismissed: 0, credibility: 0.5 },
      },
    ]);

    expect((await act('approve', ids[0]!)).status).toBe(200);
    const after = await detail(listed.caseId);
    expect(after.state).toBe('approved');
    expect(after.claimedBy).toEqual({ id: 'm1', username: 'alice' });
    expect(after.decisions).toEqual([{ decisionId: expect.any(String), action: 'approve', moderator: { id: 'm1', username: 'alice' }, fromState: 'open', toState: 'approved', at: expect.any(Number) }]);
    expect(after.sanctions).toEqual([
      {
        id: after.decisions[0].decisionId,
        userId,
        caseId: listed.caseId,
        kind: 'ban',
        blocksLogin: true,
        category: 'cheating',
        source: { type: 'case', id: listed.caseId },
        ladder: { offences: 0, proposed: { kind: 'ban', durationMs: null }, overridden: false },
        moderator: { id: 'm1', username: 'alice' },
        createdAt: expect.any(Number),
        expiresAt: null,
        state: 'active',
        statement: expect.objectContaining({ facts: expect.objectContaining({ category: 'cheating', reports: expect.objectContaining({ count: 1 }) }) }),
      },
    ]);
    expect(after.reports[0].reporter).toEqual({ id: reporter, platform: 'gameplatform', approved: 1, dismissed: 0, credibility: 2 / 3 });
  });

  it('404 for an unknown case, 403 without reports.view_reports', async () => {
    const res = await sys.get('/v1/cases/no-such-case', viewer.auth);
    expect(res.status).toBe(404);
    expect(isErrorShape(res.body)).toBe(true);
    expect((await sys.get('/v1/cases/no-such-case', submitter.auth)).status).toBe(403);
  });
});

describe('reporter credibility', () => {
  it('follows approvals and dismissals, an undo reverts it, and it weighs in the priority of their other cases', async () => {
    const reporter = newReporter();
    const first = await reportUser([[reporter, 'spam']]);
    const second = await reportUser([[reporter, 'spam']]);
    await caseOf(first.userId, 1);
    const other = await caseOf(second.userId, 1);
    const credibilityIn = async () => (await detail(other.caseId)).reports[0].reporter;

    expect((await act('dismiss', first.ids[0]!)).status).toBe(200);
    expect(await credibilityIn()).toMatchObject({ approved: 0, dismissed: 1, credibility: 1 / 3 });
    expect((await act('undo', first.ids[0]!)).status).toBe(200);
    expect(await credibilityIn()).toMatchObject({ approved: 0, dismissed: 0, credibility: 0.5 });
    expect((await act('approve', first.ids[0]!)).status).toBe(200);
    expect(await credibilityIn()).toMatchObject({ approved: 1, dismissed: 0, credibility: 2 / 3 });

    // A new report recomputes the other case's priority with the reporter's credibility as it is now.
    const res = await sys.post('/v1/reports/new', submitter.auth, categorized(second.userId, newReporter(), 'spam'));
    expect(res.status).toBe(200);
    const recomputed = await caseOf(second.userId, 2);
    expect(recomputed.priority).toBeCloseTo(10 * 1 + 4 * (2 / 3 + 0.5), 2);
  });

  it('the spec’d list entry is unchanged', async () => {
    const { userId } = await reportUser([[newReporter(), 'spam']]);
    await caseOf(userId, 1);
    const list = (await sys.get(`/v1/reports/${userId}`, viewer.auth)).body;
    expect(Object.keys(list.reports[0]).sort()).toEqual(['avurl', 'banned', 'displayname', 'evidence', 'reason', 'repid', 'reportTimeStamp', 'username']);
  });
});

describe('brigades', () => {
  it('a burst from new reporters is flagged suspected_brigade: its priority does not climb, rules skip it, the chat says so, a moderator can still act', async () => {
    const credible = await credibleReporters(2);
    // Six new reporters in a burst, then two credible ones: 6 of 8 (75%) are suspects.
    const burst = Array.from({ length: 6 }, newReporter);
    const { userId, ids } = await reportUser([...burst, ...credible].map((r) => [r, 'cheating'] as [string, string]));
    const c = await caseOf(userId, 8);
    expect(c.flags).toContain('suspected_brigade');
    expect(c.flags).not.toContain('escalated');
    // Only the two established reporters count: 10 × 5 + 4 × (2/3 + 2/3), no rule boost.
    expect(c.priority).toBeCloseTo(50 + 4 * (4 / 3), 2);
    await sys.waitFor(async () => (await messages()).some((m) => m.channel === 'reports' && m.content.includes(`(${userId})`) && m.content.includes('suspected brigade')), 15_000, 'brigade warning in the case message');
    expect((await messages()).some((m) => m.channel === 'escalations' && m.content.includes(c.caseId))).toBe(false);

    // More of the burst does not raise it.
    const more = await sys.post('/v1/reports/new', submitter.auth, categorized(userId, newReporter(), 'cheating'));
    expect(more.status).toBe(200);
    expect((await caseOf(userId, 9)).priority).toBeCloseTo(c.priority, 2);
    expect((await act('approve', ids[0]!)).status).toBe(200);
  });
});

describe('automatic rules: escalate', () => {
  it('two credible reporters of cheating escalate the case once: +100 priority, flag, one message in the escalation channel', async () => {
    const credible = await credibleReporters(2);
    const { userId } = await reportUser(credible.map((r) => [r, 'cheating'] as [string, string]));
    const c = await caseOf(userId, 2);
    expect(c.flags).toEqual(['escalated']);
    expect(c.priority).toBeCloseTo(50 + 4 * (4 / 3) + 100, 2);
    const escalations = async () => (await messages()).filter((m) => m.channel === 'escalations' && m.content.includes(c.caseId));
    await sys.waitFor(async () => (await escalations()).length === 1, 15_000, 'escalation message');
    expect((await escalations())[0]!.content).toMatch(/rule cheat-escalate/);

    const more = await sys.post('/v1/reports/new', submitter.auth, categorized(userId, newReporter(), 'cheating'));
    expect(more.status).toBe(200);
    await caseOf(userId, 3);
    expect(await escalations()).toHaveLength(1);
  });

  it('neutral reporters do not trigger it', async () => {
    const { userId } = await reportUser([
      [newReporter(), 'cheating'],
      [newReporter(), 'cheating'],
    ]);
    expect((await caseOf(userId, 2)).flags).toEqual([]);
  });
});

describe('the triage policy at start', () => {
  // Every process reads it, the evidence worker too (its `evidence.retention`).
  it.each(Object.keys(APPS) as (keyof typeof APPS)[])('%s stops at start with one line naming the bad field of an invalid policy', async (app) => {
    const bad = writePolicy({ ...TEST_POLICY, brigade: { ...TEST_POLICY.brigade, suspectShare: 2 } });
    const r = await runNode(APPS[app], [], { ...sys.env, TRIAGE_POLICY: bad, PORT: '0' });
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/invalid configuration: TRIAGE_POLICY: brigade\.suspectShare: must be between 0 and 1/);
  });

  it('a YAML policy is read too, and a bad field in it is named', async () => {
    const yaml = writePolicy('category: {questionId: category, default: other}\ncategories: {other: {severity: 1, sla: PT1H, clause: Follow the code of conduct.}}\nweights: {severity: 1, reporters: 1, agePerHour: 1}\nbrigade: {window: PT1M, minReporters: 3, suspectShare: 0.5, lowCredibility: 0.2}\nrules:\n  - {id: ban, category: other, minReporters: 2, minCredibility: 0.5, window: PT1H, action: {type: sanction, duration: P1M}}\nclaimTtl: PT10M\nsystemModeratorId: system\n', 'policy.yaml');
    const r = await runNode(APPS.intake, [], { ...sys.env, TRIAGE_POLICY: yaml });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/TRIAGE_POLICY: rules\.0\.action\.duration: must be a positive ISO 8601 duration/);
  });
});

describe('GET /openapi.json', () => {
  it('describes the case endpoints with the fields of the contract’s extensions', async () => {
    const doc = (await sys.request('GET', '/openapi.json')).body;
    const ok = (path: string) => doc.paths[path].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(ok('/v1/cases').properties.cases.items.properties).sort()).toEqual(
      ['caseId', 'categories', 'claimedBy', 'distinctReporters', 'flags', 'lastReportAt', 'openedAt', 'player', 'priority', 'reportCount', 'state', 'userId'],
    );
    expect(Object.keys(ok('/v1/cases/{caseId}').properties.case.properties)).toEqual(expect.arrayContaining(['reports', 'decisions', 'sanctions']));
    for (const status of ['400', '401', '403', '404', '429', '500']) expect(doc.paths['/v1/cases'].get.responses[status], status).toBeDefined();
  });
});
