import { afterAll, beforeAll, expect, it } from 'vitest';
import { isErrorShape, report, System, type Key } from '../harness.js';
import { PrivateRedis } from '../private-redis.js';
import { acceptedAreListedOnce, submitUntil } from './load.js';

let redis: PrivateRedis;
let sys: System;
let admin: Key;
const users = ['830', '831', '832'];

beforeAll(async () => {
  redis = await PrivateRedis.start();
  sys = await System.start({ apps: ['gateway', 'intake'], env: { REDIS_URL: redis.url, MAX_REPORTS_PER_DAY: '1000000', JOB_LOCK_MS: '2000' } });
  admin = await sys.createKey(['--admin']);
  for (const u of users) await sys.addUser(u);
});
afterAll(async () => {
  await sys?.stop();
  await redis?.stop();
});

const bounded = (path: string, body: unknown) =>
  fetch(`${sys.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: admin.auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });

it('accepted reports survive a Redis crash; the gateway answers 500 meanwhile and recovers by itself', async () => {
  const before = await submitUntil(sys, admin.auth, users, 4, () => new Promise((r) => setTimeout(r, 1500)));
  await redis.down('SIGKILL');

  for (const [path, body] of [['/v1/reports/new', report('830', 'while-down')], ['/v1/reports/check', { userId: '830', reporterId: 'x' }]] as const) {
    const res = await bounded(path, body);
    expect(res.status).toBe(500);
    const json = (await res.json()) as any;
    expect(isErrorShape(json)).toBe(true);
    expect(json.message).toMatch(/unavailable/i);
  }

  await redis.up();
  await sys.waitFor(async () => (await bounded('/v1/reports/new', report('831', 'back-up'))).status === 200, 30_000, 'the gateway to recover');
  const after = await submitUntil(sys, admin.auth, users, 4, () => new Promise((r) => setTimeout(r, 1000)));
  const accepted = [...before, ...after];
  const { missing, duplicated, listed } = await acceptedAreListedOnce(sys, admin.auth, users, accepted, 60_000);
  process.stderr.write(`redis restart test: ${before.length} accepted before the crash, ${after.length} after, ${listed} listed\n`);
  expect(before.length).toBeGreaterThan(0);
  expect(after.length).toBeGreaterThan(0);
  expect(missing).toEqual([]);
  expect(duplicated).toEqual([]);
});
