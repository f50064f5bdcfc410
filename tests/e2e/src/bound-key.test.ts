import { PERMISSIONS } from '@rm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorShape, report, System, type Key } from './harness.js';

// API keys bound to a moderator (the console's sign-in): GET /v1/me tells who the key is, and a
// bound key may act only as its moderator.
let sys: System;
let alice: Key;
let plain: Key;
let admin: Key;

beforeAll(async () => {
  sys = await System.start();
  await sys.addModerator('m-alice', 'alice');
  await sys.addModerator('m-bob', 'bob');
  alice = await sys.createKey(['--permission', 'reports.handle_reports', '--permission', 'reports.view_reports', '--moderator', 'm-alice']);
  plain = await sys.createKey(['--permission', 'reports.handle_reports']);
  admin = await sys.createKey(['--admin']);
  await sys.addUser('9701');
});
afterAll(() => sys?.stop());

async function submitted(userId: string, reporterId: string): Promise<string> {
  const res = await sys.post('/v1/reports/new', admin.auth, report(userId, reporterId));
  expect(res.status).toBe(200);
  const id = res.body.id as string;
  await sys.waitFor(async () => (await sys.get(`/v1/reports/${userId}`, admin.auth)).body.reports?.some((r: any) => r.repid === id), 15_000, 'report stored');
  return id;
}

describe('apikey create --moderator', () => {
  it('refuses a moderator that is not registered, and creates no key', async () => {
    const before = JSON.parse((await sys.cli(['apikey', 'list', '--json'])).stdout).length;
    const r = await sys.cli(['apikey', 'create', '--name', 'ghost', '--permission', 'reports.handle_reports', '--moderator', 'm-nobody']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no moderator m-nobody/);
    expect(JSON.parse((await sys.cli(['apikey', 'list', '--json'])).stdout)).toHaveLength(before);
  });

  it('lists the bound moderator with the key', async () => {
    const keys = JSON.parse((await sys.cli(['apikey', 'list', '--json'])).stdout) as { key: string; moderatorId?: string }[];
    expect(keys.find((k) => k.key === alice.key)?.moderatorId).toBe('m-alice');
    expect(keys.find((k) => k.key === plain.key)?.moderatorId).toBeUndefined();
  });
});

describe('GET /v1/me', () => {
  it('a bound key: the key and its moderator', async () => {
    const res = await sys.get('/v1/me', alice.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      key: { id: alice.key, name: 'test', permissions: ['reports.handle_reports', 'reports.view_reports'] },
      moderator: { id: 'm-alice', username: 'alice' },
    });
  });

  it('an unbound key: moderator null; an admin key lists every permission', async () => {
    expect((await sys.get('/v1/me', plain.auth)).body).toEqual({ success: true, key: { id: plain.key, name: 'test', permissions: ['reports.handle_reports'] }, moderator: null });
    const res = await sys.get('/v1/me', admin.auth);
    expect(res.body.moderator).toBeNull();
    expect([...res.body.key.permissions].sort()).toEqual([...PERMISSIONS].sort());
  });

  it('without a valid key: 401 in the error shape', async () => {
    for (const auth of [undefined, `${alice.key}:wrong`]) {
      const res = await sys.request('GET', '/v1/me', auth === undefined ? {} : { auth });
      expect(res.status).toBe(401);
      expect(isErrorShape(res.body)).toBe(true);
    }
  });
});

describe('POST /v1/reports/{id}/claim with a bound key', () => {
  it('naming another moderator: 403 with a clear message, and the case stays unclaimed', async () => {
    const id = await submitted('9701', 'bk-1');
    const res = await sys.post(`/v1/reports/${id}/claim`, alice.auth, { moderator: { id: 'm-bob' } });
    expect(res.status).toBe(403);
    expect(isErrorShape(res.body)).toBe(true);
    expect(res.body.message).toBe('This API key is bound to moderator m-alice and may act only as them, not as m-bob');
    const history = await sys.cli(['case', 'history', id]);
    expect(history.stdout).toMatch(/open/);
    expect(history.stdout).not.toMatch(/claimed/);
    // The unbound key may still claim as bob: binding restricts only the bound key.
    const bob = await sys.post(`/v1/reports/${id}/claim`, plain.auth, { moderator: { id: 'm-bob' } });
    expect(bob.status).toBe(200);
    expect(bob.body.data.moderator).toEqual({ id: 'm-bob', username: 'bob' });
  });

  it('naming its own moderator: acts as them, and every decision endpoint checks the binding', async () => {
    const id = await submitted('9701', 'bk-2');
    for (const action of ['unclaim', 'approve', 'dismiss', 'undo']) {
      const res = await sys.post(`/v1/reports/${id}/${action}`, alice.auth, { moderator: { id: 'm-bob' } });
      expect(res.status, action).toBe(403);
      expect(res.body.message, action).toMatch(/bound to moderator m-alice/);
    }
    // The case above (9701's open one) is claimed by bob; bob unclaims it, then alice claims and approves.
    expect((await sys.post(`/v1/reports/${id}/unclaim`, plain.auth, { moderator: { id: 'm-bob' } })).status).toBe(200);
    const claim = await sys.post(`/v1/reports/${id}/claim`, alice.auth, { moderator: { id: 'm-alice' } });
    expect(claim.status).toBe(200);
    expect(claim.body.data.moderator).toEqual({ id: 'm-alice', username: 'alice' });
    const approve = await sys.post(`/v1/reports/${id}/approve`, alice.auth, { moderator: { id: 'm-alice' } });
    expect(approve.status).toBe(200);
    expect(approve.body.data.moderator.username).toBe('alice');
  });

  it('a bad body is still a 400 naming the field, not a 403', async () => {
    const res = await sys.post(`/v1/reports/anything/claim`, alice.auth, { moderator: {} });
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.field).toBe('moderator.id');
  });
});
