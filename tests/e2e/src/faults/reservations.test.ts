import { afterAll, beforeAll, expect, it } from 'vitest';
import { redisUrl, report, System, type HttpResult, type Key } from '../harness.js';
import { RedisProxy } from './redis-proxy.js';

/**
 * The gateway reaches Redis through a proxy that loses or delays the answer to the reservations
 * script (it alone contains `cjson`); the intake worker and the test reach Redis directly.
 */
let proxy: RedisProxy;
let sys: System;
let admin: Key;
let nextUser = 900;
const MAX_PER_DAY = 2;

beforeAll(async () => {
  proxy = await RedisProxy.start(redisUrl());
  sys = await System.start({ apps: ['gateway', 'intake'], env: { MAX_REPORTS_PER_DAY: String(MAX_PER_DAY) }, appEnv: { gateway: { REDIS_URL: proxy.url } } });
  admin = await sys.createKey(['--admin']);
});
afterAll(async () => {
  await sys?.stop();
  await proxy?.close();
});

async function newUser(): Promise<string> {
  const id = String(nextUser++);
  await sys.addUser(id);
  return id;
}

const submit = (userId: string, reporterId: string): Promise<HttpResult> => sys.post('/v1/reports/new', admin.auth, report(userId, reporterId));

/** A client's submit: tried again once on a 500, as the error tells it to. */
async function submitAsAClient(userId: string, reporterId: string): Promise<HttpResult[]> {
  const first = await submit(userId, reporterId);
  return first.status === 500 ? [first, await submit(userId, reporterId)] : [first];
}

const storedCount = async (userId: string) => (await sys.get(`/v1/reports/${userId}`, admin.auth)).body.count as number;

/** The reporter's count today is exactly `used`: what is left of the day's cap is accepted, then no more. */
async function expectUsedToday(reporterId: string, used: number): Promise<void> {
  for (let i = used; i < MAX_PER_DAY; i++) expect((await submit(await newUser(), reporterId)).status, `report ${i + 1} of the day`).toBe(200);
  expect((await submit(await newUser(), reporterId)).status, 'past the daily cap').toBe(429);
}

/** Every report of the user is stored (and listed) and stays so. */
async function expectStored(userId: string, count: number): Promise<void> {
  await sys.waitFor(async () => (await storedCount(userId)) >= count, 20_000, `${count} report(s) of user ${userId}`);
  const queue = sys.queue('intake');
  await sys.waitFor(async () => (await queue.getJobCounts('wait', 'active', 'delayed')).wait === 0, 20_000, 'the intake queue drained');
  expect(await storedCount(userId)).toBe(count);
}

it('the reservations ran but their answer was lost: the submit is accepted once, never refused as already reported, and uses one report of the day', async () => {
  const userId = await newUser();
  const cut = proxy.cutAnswerTo('cjson');
  const answers = await submitAsAClient(userId, 'lost-answer');
  await cut;
  expect(answers.at(-1)!.status, JSON.stringify(answers.map((a) => a.body))).toBe(200);
  await expectStored(userId, 1);
  await expectUsedToday('lost-answer', 1);
});

it('the answers came after the command timeout while the job landed: the report is stored once and uses one report of the day', async () => {
  const userId = await newUser();
  // The gateway's queue connection times a command out after 2 s.
  const late = proxy.delayAnswerTo('cjson', 2_500);
  const answers = await submitAsAClient(userId, 'late-answer');
  await late;
  expect(answers.at(-1)!.status, JSON.stringify(answers.map((a) => a.body))).toBe(200);
  await expectStored(userId, 1);
  await expectUsedToday('late-answer', 1);
});

it('Redis out of reach for longer than the gateway confirms: the caller is told to retry, the reservations are released, and a job that landed stores nothing', async () => {
  const userId = await newUser();
  // No worker takes the job meanwhile: the gateway is the one to settle it.
  await sys.stopApp('intake');
  const cut = proxy.cutAnswerTo('cjson', 5_000);
  const first = await submit(userId, 'abandoned');
  await cut;
  expect(first.status).toBe(500);
  // Once Redis is back within reach the gateway abandons the submit in the background: the
  // reporter may report the user again.
  await sys.waitFor(async () => (await sys.post('/v1/reports/check', admin.auth, { userId, reporterId: 'abandoned' })).body.canReport === true, 30_000, 'the reservations released');
  expect((await submit(userId, 'abandoned')).status).toBe(200);
  await sys.startApp('intake');
  await expectStored(userId, 1);
  await expectUsedToday('abandoned', 1);
});
