import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorShape, report, System, type Key } from './harness.js';
import { endpoint, loadContract, names } from './spec.js';

// GET /v1/stats on a system of its own, with the default policy's claim TTL and SLA (nothing expires while
// it runs), so every figure is known: three cases, two decided, one decision undone.
let sys: System;
let admin: Key;
let viewer: Key;
let submitter: Key;
const ids: Record<string, string> = {};

beforeAll(async () => {
  sys = await System.start({ env: { MAX_REPORTS_PER_DAY: '1000' } });
  [admin, viewer, submitter] = await Promise.all([
    sys.createKey(['--admin']),
    sys.createKey(['--permission', 'reports.view_reports']),
    sys.createKey(['--permission', 'reports.submit_report']),
  ]);
  await sys.addModerator('m1', 'alice');
  await sys.addModerator('m2', 'bob');
  for (const [name, userId] of [['a', '9101'], ['b', '9102'], ['c', '9103']] as const) {
    await sys.addUser(userId);
    const res = await sys.post('/v1/reports/new', submitter.auth, report(userId, `stats-${name}`));
    expect(res.status).toBe(200);
    ids[name] = res.body.id;
  }
  // A fourth report joins case c.
  expect((await sys.post('/v1/reports/new', submitter.auth, report('9103', 'stats-c2'))).status).toBe(200);
  for (const userId of ['9101', '9102']) await sys.waitFor(async () => (await sys.get(`/v1/reports/${userId}`, viewer.auth)).body.count === 1, 15_000, 'stored');
  await sys.waitFor(async () => (await sys.get('/v1/reports/9103', viewer.auth)).body.count === 2, 15_000, 'stored');
  const act = async (action: string, id: string, moderatorId: string) => expect((await sys.post(`/v1/reports/${id}/${action}`, admin.auth, { moderator: { id: moderatorId } })).status).toBe(200);
  await act('claim', ids['a']!, 'm1');
  await act('approve', ids['a']!, 'm1');
  await act('undo', ids['a']!, 'm2');
  await act('claim', ids['b']!, 'm1');
  await act('dismiss', ids['b']!, 'm1');
  await act('claim', ids['c']!, 'm2');
}, 120_000);
afterAll(() => sys?.stop());

const zero = { claim: 0, unclaim: 0, expire: 0, approve: 0, dismiss: 0, undo: 0 };

describe('GET /v1/stats', () => {
  it('the queue now and the decisions of the window, overall, per moderator and per category', async () => {
    const res = await sys.get('/v1/stats?window=P7D', viewer.auth);
    expect(res.status).toBe(200);
    const s = res.body;
    expect(s).toMatchObject({
      success: true,
      window: 'P7D',
      open: 1, // a, reopened by the undo
      claimed: 1, // c
      slaBreaches: 0,
      openSlaBreached: 0,
      reportsReceived: 4,
      decisions: { ...zero, claim: 3, approve: 1, dismiss: 1, undo: 1 },
      overturnRate: 0.5,
    });
    expect(s.until - s.since).toBe(7 * 24 * 3600 * 1000);
    expect(s.oldestOpenAgeMs).toBeGreaterThanOrEqual(0);
    for (const k of ['medianTimeToClaimMs', 'medianTimeToDecisionMs']) expect(s[k], k).toBeGreaterThanOrEqual(0);
    expect(s.byModerator.map((m: { moderatorId: string }) => m.moderatorId)).toEqual(['m1', 'm2']);
    expect(s.byModerator[0]).toMatchObject({ moderatorId: 'm1', claimed: 0, decisions: { ...zero, claim: 2, approve: 1, dismiss: 1 }, overturnRate: 0.5 });
    expect(s.byModerator[1]).toMatchObject({ moderatorId: 'm2', claimed: 1, decisions: { ...zero, claim: 1, undo: 1 }, overturnRate: null, medianTimeToDecisionMs: null });
    expect(s.byCategory).toEqual([
      expect.objectContaining({ category: 'other', open: 1, claimed: 1, slaBreaches: 0, decisions: s.decisions, overturnRate: 0.5 }),
    ]);
  });

  it('defaults to P7D; a short window leaves out what happened before it, not the queue as it is', async () => {
    expect((await sys.get('/v1/stats', viewer.auth)).body.window).toBe('P7D');
    await new Promise((r) => setTimeout(r, 1_100));
    const res = await sys.get('/v1/stats?window=PT1S', viewer.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ window: 'PT1S', open: 1, claimed: 1, reportsReceived: 0, decisions: zero, overturnRate: null, medianTimeToClaimMs: null });
    expect(res.body.byModerator).toEqual([expect.objectContaining({ moderatorId: 'm2', claimed: 1, decisions: zero })]);
  });

  it.each(['7D', 'P1Y', 'P1M', 'PT', 'P0D', '-P1D', 'P7D%20', 'P91D'])('400 naming the parameter for ?window=%s', async (window) => {
    const res = await sys.get(`/v1/stats?window=${window}`, viewer.auth);
    expect(res.status).toBe(400);
    expect(isErrorShape(res.body)).toBe(true);
    // The rule of every endpoint without a body (docs/api.md): the message names it, no `errors`.
    expect(res.body.message).toMatch(/window/);
    expect(res.body.errors).toBeUndefined();
  });

  it('400 for an unknown query parameter, 401 without a key, 403 without reports.view_reports', async () => {
    const unknown = await sys.get('/v1/stats?since=1', viewer.auth);
    expect(unknown.status).toBe(400);
    expect(isErrorShape(unknown.body)).toBe(true);
    expect(JSON.stringify(unknown.body)).toMatch(/since/);
    const anonymous = await sys.request('GET', '/v1/stats');
    expect(anonymous.status).toBe(401);
    expect(isErrorShape(anonymous.body)).toBe(true);
    const forbidden = await sys.get('/v1/stats', submitter.auth);
    expect(forbidden.status).toBe(403);
    expect(isErrorShape(forbidden.body)).toBe(true);
  });

  it('the OpenAPI document describes it as the contract does', async () => {
    const doc = (await sys.request('GET', '/openapi.json')).body;
    const contract = endpoint(loadContract(), 'GET', '/v1/stats');
    const answer = doc.paths['/v1/stats'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(answer.properties).sort()).toEqual(names(contract.response.fields));
    expect(Object.keys(answer.properties.byModerator.items.properties).sort()).toEqual(names(contract.response.fields!['byModerator']!.entry));
    expect(Object.keys(answer.properties.byCategory.items.properties).sort()).toEqual(names(contract.response.fields!['byCategory']!.entry));
    const window = doc.paths['/v1/stats'].get.parameters.find((p: { name: string }) => p.name === 'window');
    expect(window).toMatchObject({ in: 'query', required: false });
  });
});
