import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakePlatform } from './fake-platform.js';
import { isErrorShape, report, System, type Key } from './harness.js';

// Issue 32 item 3: one bound for a player id everywhere. Submit takes any userId the spec allows,
// so the ban API, the reports list and the check take it too: a player with a long id can be
// banned and the ban looked up by a game server.
let fake: FakePlatform;
let sys: System;
let admin: Key;
let reader: Key;

beforeAll(async () => {
  fake = await FakePlatform.start();
  // The game platform's directory: the embedded one (CLI `user add`) takes numeric ids only.
  sys = await System.start({ env: { USER_DIRECTORY_URL: `${fake.url}/directory`, MAX_REPORTS_PER_DAY: '1000' } });
  [admin, reader] = await Promise.all([sys.createKey(['--admin']), sys.createKey(['--permission', 'sanctions.read'])]);
  await sys.addModerator('m1', 'alice');
});
afterAll(async () => {
  await sys?.stop();
  await fake?.stop();
});

/** A 300-character id with characters a path has to escape. */
const longId = (tag: string) => `${tag}-ü é+%&?#${'9'.repeat(300)}`.slice(0, 300);

describe('a 300-character player id', () => {
  it('is reported, banned through approve, and found banned by GET /v1/sanctions/{userId}, the list of reports and the check', async () => {
    const userId = longId('ban');
    expect(userId).toHaveLength(300);
    fake.users.set(userId, { id: 8700, name: 'longname', displayName: 'Long Name', avatar: null });
    const submitted = await sys.post('/v1/reports/new', admin.auth, report(userId, 'rep-1'));
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    const path = encodeURIComponent(userId);
    await sys.waitFor(async () => (await sys.get(`/v1/reports/${path}`, admin.auth)).body.reports?.length === 1, 15_000, 'the report to be stored');

    expect((await sys.post(`/v1/reports/${submitted.body.id}/claim`, admin.auth, { moderator: { id: 'm1' } })).status).toBe(200);
    const approved = await sys.post(`/v1/reports/${submitted.body.id}/approve`, admin.auth, { moderator: { id: 'm1' } });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);

    const status = await sys.get(`/v1/sanctions/${path}`, reader.auth);
    expect(status.status, JSON.stringify(status.body)).toBe(200);
    expect(status.body).toMatchObject({ success: true, userId, banned: true, sanctions: [{ userId, kind: 'ban', state: 'active' }] });

    const listed = await sys.get(`/v1/reports/${path}`, admin.auth);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ success: true, count: 1, reports: [{ repid: submitted.body.id, banned: true, username: 'longname', displayname: 'Long Name' }] });

    const check = await sys.post('/v1/reports/check', admin.auth, { userId, reporterId: 'x'.repeat(300) });
    expect(check.status, JSON.stringify(check.body)).toBe(200);
    expect(check.body).toMatchObject({ success: true, canReport: false });
  });

  it('a player never sanctioned with a 10,000-character id is 200, not banned', async () => {
    const userId = 'q'.repeat(10_000);
    const res = await sys.get(`/v1/sanctions/${userId}`, reader.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, userId, banned: false, restrictions: [], sanctions: [] });
    const list = await sys.get(`/v1/reports/${userId}`, admin.auth);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ success: true, count: 0, reports: [] });
  });

  it('an id longer than the request line Node allows (16 KiB of headers) is a 400 in the error shape', async () => {
    const res = await sys.get(`/v1/sanctions/${'z'.repeat(20_000)}`, reader.auth);
    expect(res.status).toBe(400);
    expect(isErrorShape(res.body)).toBe(true);
  });
});
