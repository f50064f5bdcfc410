import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { report, System, type Key } from '../harness.js';
import { PrivateRedis } from '../private-redis.js';

// Redis holds derived state only: after a real FLUSHALL the ban API, the list and the check still
// report every banned player as banned (rebuilt from storage), open cases keep their reporters'
// marks, and a pending expiry still happens.
let redis: PrivateRedis;
let sys: System;
let admin: Key;

beforeAll(async () => {
  redis = await PrivateRedis.start();
  sys = await System.start({ env: { REDIS_URL: redis.url, MAX_REPORTS_PER_DAY: '1000' } });
  admin = await sys.createKey(['--admin']);
  await sys.addModerator('m1', 'alice');
  for (const u of ['861', '862', '863']) await sys.addUser(u);
});
afterAll(async () => {
  await sys?.stop();
  await redis?.stop();
});

async function approved(userId: string, body: Record<string, unknown> = {}): Promise<void> {
  const submitted = await sys.post('/v1/reports/new', admin.auth, report(userId, `rep-${userId}`));
  expect(submitted.status).toBe(200);
  await sys.waitFor(async () => (await sys.get(`/v1/reports/${userId}`, admin.auth)).body.count === 1, 15_000, 'report stored');
  expect((await sys.post(`/v1/reports/${submitted.body.id}/claim`, admin.auth, { moderator: { id: 'm1' } })).status).toBe(200);
  expect((await sys.post(`/v1/reports/${submitted.body.id}/approve`, admin.auth, { moderator: { id: 'm1' }, ...body })).status).toBe(200);
}

const check = async (userId: string) => (await sys.post('/v1/reports/check', admin.auth, { userId, reporterId: `fresh-${Date.now()}-${Math.random()}` })).body;

it('after FLUSHALL no banned player is reported as not banned, and a temporary sanction still expires', async () => {
  await approved('861');
  await approved('862', { duration: 'PT4S' });
  // An open case: its reporter may not report it again.
  expect((await sys.post('/v1/reports/new', admin.auth, report('863', 'rep-863'))).status).toBe(200);
  await sys.waitFor(async () => (await sys.get('/v1/reports/863', admin.auth)).body.count === 1, 15_000, 'report stored');
  expect((await check('861')).canReport).toBe(false);
  // The status cache is filled before the loss.
  expect((await sys.get('/v1/sanctions/861', admin.auth)).body.banned).toBe(true);

  const client = new Redis(redis.url);
  await client.flushall();
  client.disconnect();

  // The ban API and the list read storage on a miss: banned at once.
  expect((await sys.get('/v1/sanctions/861', admin.auth)).body.banned).toBe(true);
  expect((await sys.get('/v1/reports/861', admin.auth)).body.reports[0].banned).toBe(true);
  // The check's ban flag is rebuilt by the moderation worker within about a second.
  await sys.waitFor(async () => (await check('861')).canReport === false, 10_000, 'the ban flag rebuilt');
  expect((await check('861')).reason).toMatch(/banned/i);
  // The open case's mark is rebuilt too; anyone else may still report the player.
  await sys.waitFor(async () => (await sys.post('/v1/reports/check', admin.auth, { userId: '863', reporterId: 'rep-863' })).body.canReport === false, 10_000, 'the open-case mark rebuilt');
  expect((await check('863')).canReport).toBe(true);

  // The delayed expiry job was lost with Redis; the sweep, rescheduled by the rebuild, expires it.
  await sys.waitFor(async () => (await sys.get('/v1/sanctions/862', admin.auth)).body.banned === false, 40_000, 'the sanction expired');
  expect((await sys.get('/v1/sanctions/862', admin.auth)).body.sanctions[0].state).toBe('expired');
  await sys.waitFor(async () => (await check('862')).canReport === true, 10_000, 'the expired ban flag cleared');
});
