import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorShape, report, System, type Key } from './harness.js';

let sys: System;
let key: Key;

beforeAll(async () => {
  sys = await System.start({ apps: ['gateway', 'intake'], env: { MAX_REPORTS_PER_DAY: '2' } });
  key = await sys.createKey(['--permission', 'reports.submit_report']);
  await sys.addUser('200', 'griefer', 'The Griefer');
  await sys.addUser('201');
  await sys.addUser('202');
});
afterAll(() => sys?.stop());

const check = (userId: string, reporterId: string) => sys.post('/v1/reports/check', key.auth, { userId, reporterId });

describe('POST /v1/reports/check', () => {
  it('says a fresh reporter can report, with the user from the directory', async () => {
    const res = await check('200', 'c-1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      canReport: true,
      user: { id: 200, name: 'griefer', displayName: 'The Griefer' },
      reporterId: 'c-1',
      reason: expect.any(String),
    });
  });

  it('sees a submit at once: the same reporter cannot report the open case again', async () => {
    expect((await sys.post('/v1/reports/new', key.auth, report('200', 'c-2'))).status).toBe(200);
    const res = await check('200', 'c-2');
    expect(res.status).toBe(200);
    expect(res.body.canReport).toBe(false);
    expect(res.body.reason).toMatch(/already reported/);
    expect((await check('200', 'c-3')).body.canReport).toBe(true);
  });

  it('says no once the reporter reached the daily maximum', async () => {
    expect((await sys.post('/v1/reports/new', key.auth, report('201', 'c-daily'))).status).toBe(200);
    expect((await sys.post('/v1/reports/new', key.auth, report('202', 'c-daily'))).status).toBe(200);
    const res = await check('200', 'c-daily');
    expect(res.body.canReport).toBe(false);
    expect(res.body.reason).toMatch(/maximum of 2 reports per day/);
  });

  it('404 for an unknown user', async () => {
    const res = await check('424242', 'c-1');
    expect(res.status).toBe(404);
    expect(isErrorShape(res.body)).toBe(true);
  });

  it.each([
    ['missing reporterId', { userId: '200' }, 'reporterId'],
    ['missing userId', { reporterId: 'x' }, 'userId'],
    ['wrong type', { userId: 200, reporterId: 'x' }, 'userId'],
    ['a forbidden property name', JSON.parse('{"userId":"200","reporterId":"x","__proto__":{"admin":true}}'), '__proto__'],
  ])('400 for %s', async (_n, body, field) => {
    const res = await sys.post('/v1/reports/check', key.auth, body);
    expect(res.status).toBe(400);
    expect(isErrorShape(res.body)).toBe(true);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('takes any string as the ids, the empty one too, as submit does; other properties are ignored', async () => {
    // Submit takes an empty reporter id, so check must too (spec 4.2: string, no bound).
    expect((await check('200', '')).body).toMatchObject({ success: true, canReport: true, reporterId: '' });
    const res = await sys.post('/v1/reports/check', key.auth, { userId: '200', reporterId: 'c-extra', platform: 'gameplatform' });
    expect(res.status).toBe(200);
    expect(res.body.reporterId).toBe('c-extra');
    // An empty user id is looked up like any other: no such player.
    expect((await check('', 'c-1')).status).toBe(404);
  });
});
