import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakePlatform } from './fake-platform.js';
import { isErrorShape, report, System, type Key } from './harness.js';

// Issue 18 item 8: bodies the spec allows are accepted, whatever length it leaves open (within the
// 64 KiB body limit), and stored; a 400 carries `errors` only where section 7 allows it.
let fake: FakePlatform;
let sys: System;
let admin: Key;

beforeAll(async () => {
  fake = await FakePlatform.start();
  fake.addUser({ id: 8600, name: 'spec', displayName: 'Spec', avatar: null });
  sys = await System.start({ apps: ['gateway', 'intake'], env: { USER_DIRECTORY_URL: `${fake.url}/directory`, MAX_REPORTS_PER_DAY: '1000' } });
  admin = await sys.createKey(['--admin']);
});
afterAll(async () => {
  await sys?.stop();
  await fake?.stop();
});

describe('POST /v1/reports/new accepts what the spec allows', () => {
  it.each([
    ['questionId of 200 characters', { answers: [{ questionId: 'q'.repeat(200), answer: 'a' }] }],
    ['an empty questionId', { answers: [{ questionId: '', answer: 'a' }] }],
    ['an evidence url of 3,000 characters', { evidence: [{ url: `https://clips.example/${'u'.repeat(2_979)}`, type: 'url' }] }],
    ['a reporter.id of 200 characters', { reporter: { id: 'r'.repeat(200), platform: 'gameplatform' } }],
  ])('%s: 200, and stored as sent', async (_name, override) => {
    const body = report('8600', `spec-${Math.random()}`, override);
    const res = await sys.post('/v1/reports/new', admin.auth, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await sys.waitFor(async () => (await sys.get('/v1/reports/8600?limit=100', admin.auth)).body.reports.some((r: { repid: string }) => r.repid === res.body.id), 15_000, 'the report to be stored');
    const listed = (await sys.get('/v1/reports/8600?limit=100', admin.auth)).body.reports.find((r: { repid: string }) => r.repid === res.body.id);
    expect(listed.evidence).toEqual((body['evidence'] as { url: string }[]).map((e) => e.url));
  });

  it('20 KB ids (user and reporter): the limits, the case and the store all work with them', async () => {
    const userId = `u${'9'.repeat(20_000)}`;
    fake.users.set(userId, { id: 8601, name: 'long', displayName: 'Long', avatar: null });
    const reporters = ['a', 'b'].map((r) => `${r}${'x'.repeat(20_000)}`);
    const first = await sys.post('/v1/reports/new', admin.auth, report(userId, reporters[0]!));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const second = await sys.post('/v1/reports/new', admin.auth, report(userId, reporters[1]!));
    expect(second.body).toMatchObject({ success: true, appended: true });
    const again = await sys.post('/v1/reports/new', admin.auth, report(userId, reporters[0]!));
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/already reported/);
    await sys.waitFor(async () => (await sys.cli(['case', 'history', second.body.id])).code === 0, 15_000, 'the reports to be stored');
    const history = await sys.cli(['case', 'history', second.body.id]);
    expect(history.stdout).toContain(`about user ${userId}: open, 2 report(s)`);
  });
});

describe('GET /v1/reports/{id}: a bad page or limit', () => {
  it.each([
    ['page=0', 'page'],
    ['page=x', 'page'],
    ['limit=101', 'limit'],
    ['limit=', 'limit'],
  ])('?%s is a 400 without `errors`, its message naming %s', async (query, parameter) => {
    const res = await sys.get(`/v1/reports/8600?${query}`, admin.auth);
    expect(res.status).toBe(400);
    expect(isErrorShape(res.body)).toBe(true);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.message).toMatch(new RegExp(`^Invalid query parameter ${parameter}: `));
  });

  it('a body endpoint still names each field in `errors`', async () => {
    const res = await sys.post('/v1/reports/new', admin.auth, report('8600', 'r', { answers: [] }));
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('answers');
  });
});
