import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorShape, report, System, type Key } from './harness.js';

let sys: System;
let submitter: Key;
let viewer: Key;
const ids: string[] = [];

beforeAll(async () => {
  sys = await System.start({ apps: ['gateway', 'intake'] });
  submitter = await sys.createKey(['--permission', 'reports.submit_report']);
  viewer = await sys.createKey(['--permission', 'reports.view_reports']);
  await sys.addUser('400', 'toxic', 'Toxic Tim', 'https://avatars.example/400.png');
  await sys.addUser('401');
  for (let i = 0; i < 7; i++) {
    const res = await sys.post('/v1/reports/new', submitter.auth, report('400', `l-${i}`, { answers: [{ questionId: 'q', answer: `reason ${i}` }] }));
    expect(res.status).toBe(200);
    ids.push(res.body.id);
  }
  await sys.waitFor(async () => (await sys.get('/v1/reports/400', viewer.auth)).body.count === 7, 15_000, '7 reports stored');
});
afterAll(() => sys?.stop());

describe('GET /v1/reports/{id}', () => {
  it('lists the entries of spec 2.5, newest first, with the default page', async () => {
    const res = await sys.get('/v1/reports/400', viewer.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, page: 1, limit: 25, count: 7 });
    expect(res.body.reports.map((r: { repid: string }) => r.repid)).toEqual([...ids].reverse());
    expect(res.body.reports[0]).toEqual({
      repid: ids[6],
      reportTimeStamp: expect.any(Number),
      avurl: 'https://avatars.example/400.png',
      displayname: 'Toxic Tim',
      username: 'toxic',
      reason: 'reason 6',
      evidence: ['https://clips.example/1'],
      banned: false,
    });
    const stamps = res.body.reports.map((r: { reportTimeStamp: number }) => r.reportTimeStamp);
    expect(stamps).toEqual([...stamps].sort((a, b) => b - a));
  });

  it('pages: count is the total, pages past the end are empty', async () => {
    const p1 = await sys.get('/v1/reports/400?page=1&limit=3', viewer.auth);
    const p3 = await sys.get('/v1/reports/400?page=3&limit=3', viewer.auth);
    const p4 = await sys.get('/v1/reports/400?page=4&limit=3', viewer.auth);
    expect(p1.body.reports.map((r: { repid: string }) => r.repid)).toEqual([ids[6], ids[5], ids[4]]);
    expect(p3.body).toMatchObject({ page: 3, limit: 3, count: 7 });
    expect(p3.body.reports.map((r: { repid: string }) => r.repid)).toEqual([ids[0]]);
    expect(p4.status).toBe(200);
    expect(p4.body).toMatchObject({ page: 4, count: 7, reports: [] });
    const max = await sys.get('/v1/reports/400?limit=100', viewer.auth);
    expect(max.body.reports).toHaveLength(7);
  });

  it('a user with no reports gives an empty list', async () => {
    const res = await sys.get('/v1/reports/401', viewer.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, page: 1, limit: 25, count: 0, reports: [] });
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=2.5', 'limit'],
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=', 'page'],
    ['sort=asc', 'sort'],
  ])('400 for ?%s, naming it in the message (no `errors`: the endpoint has no body, section 7)', async (query, field) => {
    const res = await sys.get(`/v1/reports/400?${query}`, viewer.auth);
    expect(res.status).toBe(400);
    expect(isErrorShape(res.body)).toBe(true);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.message).toContain(`query parameter ${field}:`);
  });
});
