import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorShape, report, System, type Key } from './harness.js';

let sys: System;
const keys: Record<string, Key> = {};

// Short key cache so the revocation test sees the revocation quickly.
beforeAll(async () => {
  sys = await System.start({ apps: ['gateway'], env: { KEY_CACHE_TTL_MS: '300', DECISION_TIMEOUT_MS: '300' } });
  keys['submit'] = await sys.createKey(['--permission', 'reports.submit_report']);
  keys['handle'] = await sys.createKey(['--permission', 'reports.handle_reports']);
  keys['view'] = await sys.createKey(['--permission', 'reports.view_reports']);
  keys['admin'] = await sys.createKey(['--admin']);
  await sys.addUser('300');
});
afterAll(() => sys?.stop());

const endpoints = [
  { name: 'submit', method: 'POST', path: '/v1/reports/new', body: report('300', 'a-1'), permission: 'submit' },
  { name: 'check', method: 'POST', path: '/v1/reports/check', body: { userId: '300', reporterId: 'a-1' }, permission: 'submit' },
  { name: 'list', method: 'GET', path: '/v1/reports/300', permission: 'view' },
  ...['claim', 'unclaim', 'approve', 'dismiss', 'undo'].map((action) => ({
    name: action,
    method: 'POST',
    path: `/v1/reports/00000000-0000-7000-8000-000000000000/${action}`,
    body: { moderator: { id: 'nobody' } },
    permission: 'handle',
  })),
];

describe('Authorization header', () => {
  it.each(endpoints)('$name: 401 without, with a malformed, an unknown or a wrong credential', async (e) => {
    const valid = keys['admin']!;
    for (const auth of [undefined, 'garbage', `${valid.key}:`, `:${valid.secret}`, `rk_unknown:${valid.secret}`, `${valid.key}:wrong-secret`]) {
      const res = await sys.request(e.method, e.path, { ...(auth !== undefined && { auth }), ...(e.body && { body: e.body }) });
      expect(res.status, `auth ${auth}`).toBe(401);
      expect(isErrorShape(res.body)).toBe(true);
    }
  });

  it('permission matrix: each key kind against each endpoint', async () => {
    for (const e of endpoints) {
      for (const kind of ['submit', 'handle', 'view', 'admin']) {
        const res = await sys.request(e.method, e.path, { auth: keys[kind]!.auth, ...(e.body && { body: e.body }) });
        if (kind === e.permission || kind === 'admin') {
          // Past auth: whatever the operation answers, it is not an auth refusal.
          expect([401, 403], `${kind} on ${e.name}`).not.toContain(res.status);
          expect(res.status).toBeLessThanOrEqual(500);
        } else {
          expect(res.status, `${kind} on ${e.name}`).toBe(403);
          expect(isErrorShape(res.body)).toBe(true);
        }
      }
    }
  });

  it('a revoked key stops working within the key cache TTL', async () => {
    const key = await sys.createKey(['--permission', 'reports.view_reports']);
    expect((await sys.get('/v1/reports/300', key.auth)).status).toBe(200);
    const revoked = await sys.cli(['apikey', 'revoke', key.key]);
    expect(revoked.code).toBe(0);
    await sys.waitFor(async () => (await sys.get('/v1/reports/300', key.auth)).status === 401, 5_000, 'revocation to take effect');
  });
});

describe('per-key rate limit', () => {
  it('429 once a key exceeds its requests per minute, on every endpoint kind, without touching other keys', async () => {
    const limited = await sys.createKey(['--permission', 'reports.view_reports', '--permission', 'reports.submit_report', '--rate-limit', '3']);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await sys.get('/v1/reports/300', limited.auth)).status);
    expect(statuses).toEqual([200, 200, 200]);
    const list = await sys.get('/v1/reports/300', limited.auth);
    expect(list.status).toBe(429);
    expect(isErrorShape(list.body)).toBe(true);
    const check = await sys.post('/v1/reports/check', limited.auth, { userId: '300', reporterId: 'x' });
    expect(check.status).toBe(429);
    const submit = await sys.post('/v1/reports/new', limited.auth, report('300', 'rl-1'));
    expect(submit.status).toBe(429);
    expect((await sys.get('/v1/reports/300', keys['view']!.auth)).status).toBe(200);
  });
});

describe('unknown routes', () => {
  it('404 in the error shape', async () => {
    const res = await sys.request('GET', '/v1/nothing-here', { auth: keys['admin']!.auth });
    expect(res.status).toBe(404);
    expect(isErrorShape(res.body)).toBe(true);
  });
});
