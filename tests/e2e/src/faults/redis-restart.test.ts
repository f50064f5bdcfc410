import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isErrorShape, report, System, type Key } from '../harness.js';
import { PrivateRedis } from '../private-redis.js';
import { span, recordFigures } from './chaos.js';
import { acceptedAreListedOnce } from './load.js';
import { MixedLoad } from './mixed-load.js';
import { expectWorkersDrain } from './worked-queues.js';

// Issue 51, scenario 1: Redis (AOF always) SIGKILLed under submit and decision load, restarted on
// the same port and folder a few seconds later. Nothing answered 200 is lost, the gateway refuses
// at once while Redis is away, and every process carries on by itself once it is back.
let redis: PrivateRedis;
let sys: System;
let admin: Key;
const reported = ['830', '831', '832'];
const toDecide = Array.from({ length: span(60, 600) }, (_, i) => String(84_000 + i));
const firstReports = new Map<string, string>();

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  redis = await PrivateRedis.start();
  // Every process, so every worker's reconnection is exercised; short job locks, so a job a
  // worker held when Redis died is taken again within seconds.
  sys = await System.start({ env: { REDIS_URL: redis.url, MAX_REPORTS_PER_DAY: '1000000', JOB_LOCK_MS: '2000', DECISION_TIMEOUT_MS: '3000' } });
  admin = await sys.createKey(['--admin']);
  await sys.addModerator('m1', 'alice');
  const file = join(sys.dataDir, 'users.json');
  writeFileSync(file, JSON.stringify([...reported, ...toDecide].map((id) => ({ id, name: `player${id}`, displayName: `Player ${id}` }))));
  const imported = await sys.cli(['user', 'import', file]);
  if (imported.code !== 0) throw new Error(`user import failed: ${imported.stderr}`);
  // One report about each player to approve, stored before the load starts.
  for (let i = 0; i < toDecide.length; i += 20) {
    await Promise.all(
      toDecide.slice(i, i + 20).map(async (u) => {
        const res = await sys.post('/v1/reports/new', admin.auth, report(u, `first-${u}`));
        if (res.status !== 200) throw new Error(`first report of ${u}: ${res.status} ${JSON.stringify(res.body)}`);
        firstReports.set(u, res.body.id);
      }),
    );
  }
  await sys.waitFor(async () => (await sys.queue('intake').getJobCounts('wait', 'active', 'delayed')).wait === 0, 30_000, 'the first reports taken');
  for (const u of toDecide) await sys.waitFor(async () => (await sys.get(`/v1/reports/${u}`, admin.auth)).body.count === 1, 30_000, `the first report of ${u} stored`);
}, 180_000);
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

it('Redis killed -9 under submit and decision load: every 200 kept, refusals at once while it is down, every worker back by itself', async () => {
  const load = new MixedLoad(sys, admin.auth, { reported, submitters: span(4, 8), toApprove: firstReports, deciders: 2, moderatorId: 'm1', decisionGapMs: span(100, 50) });
  await pause(span(1_500, 10_000));
  const acceptedBefore = load.outcome.accepted.length;
  await redis.down('SIGKILL');
  const downFor = span(3_000, 8_000);
  const downAt = Date.now();

  // While Redis is down: each submit is a 500 in the error shape naming Redis, and comes at once.
  const refusalMs: number[] = [];
  for (let i = 0; Date.now() - downAt < downFor; i++) {
    const started = performance.now();
    const res = await bounded('/v1/reports/new', report('830', `probe-${i}`));
    refusalMs.push(performance.now() - started);
    const body = (await res.json()) as any;
    expect(res.status, JSON.stringify(body)).toBe(500);
    expect(isErrorShape(body)).toBe(true);
    expect(body.message).toMatch(/Redis\)? is unavailable/);
    const ready = await fetch(`${sys.baseUrl}/ready`);
    expect(ready.status).toBe(500);
    expect(((await ready.json()) as any).redis).toBe(false);
    await pause(250);
  }
  // The issue's bound, behaviour rather than speed: a refusal is decided without waiting on Redis
  // (no retries, no timeout), so it takes milliseconds; 1 s is the promise, with room for a
  // loaded 2-core machine. Before the fix it took up to 3 s (the confirm window ran out).
  expect(Math.max(...refusalMs)).toBeLessThan(1_000);

  await redis.up();
  const upAt = Date.now();
  const acceptedWhileDown = load.outcome.accepted.length - acceptedBefore;
  await sys.waitFor(async () => load.outcome.accepted.length > acceptedBefore + acceptedWhileDown, 30_000, 'a submit answered 200 after Redis came back');
  const recoveryMs = Date.now() - upAt;
  await pause(span(2_000, 10_000));
  const outcome = await load.stop();

  // No worker sits idle with jobs waiting: every worked queue drains without a restart.
  await expectWorkersDrain(sys);

  const { missing, duplicated, listed } = await acceptedAreListedOnce(sys, admin.auth, reported, outcome.accepted, 60_000);

  // Every approval answered 200 is applied: the player is banned, by exactly one sanction.
  const created: string[] = [];
  for (let after: string | undefined; ; ) {
    const page = await sys.get(`/v1/sanctions?limit=1000${after ? `&after=${after}` : ''}`, admin.auth);
    created.push(...page.body.events.filter((e: any) => e.type === 'sanction.created').map((e: any) => e.userId as string));
    if (page.body.events.length < 1000) break;
    after = page.body.next;
  }
  const notBanned: string[] = [];
  for (const u of outcome.approved) if ((await sys.get(`/v1/sanctions/${u}`, admin.auth)).body.banned !== true) notBanned.push(u);
  const sanctionedTwice = created.filter((u, i) => created.indexOf(u) !== i);

  const acknowledged = outcome.accepted.length + outcome.approved.length;
  const lost = missing.length + notBanned.length;
  recordFigures({
    fault: `Redis SIGKILL, down ${downFor / 1000} s`,
    acknowledged,
    stored: acknowledged - lost,
    lost,
    recoveryMs,
    note: `${outcome.accepted.length} reports (${acceptedBefore} before the kill), ${outcome.approved.length} approvals; refusals ${Math.round(Math.min(...refusalMs))}-${Math.round(Math.max(...refusalMs))} ms; ${listed} listed (${listed - outcome.accepted.length} answered 500 at the kill yet stored: decisions.md); answers ${JSON.stringify(outcome.statuses)}`,
  });
  expect(acceptedBefore).toBeGreaterThan(0);
  expect(outcome.accepted.length).toBeGreaterThan(acceptedBefore + acceptedWhileDown);
  expect(outcome.approved.length).toBeGreaterThan(0);
  expect(missing).toEqual([]);
  expect(duplicated).toEqual([]);
  expect(notBanned).toEqual([]);
  expect(sanctionedTwice).toEqual([]);
}, 240_000);
