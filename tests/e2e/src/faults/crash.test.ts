import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report, System, type Key } from '../harness.js';
import { acceptedAreListedOnce, submitUntil } from './load.js';

let sys: System;
let admin: Key;
const users = Array.from({ length: 10 }, (_, i) => String(810 + i));

beforeAll(async () => {
  // Short job locks, so the jobs of a killed worker are picked up again within seconds.
  sys = await System.start({ apps: ['gateway', 'intake'], env: { MAX_REPORTS_PER_DAY: '1000000', JOB_LOCK_MS: '2000' } });
  admin = await sys.createKey(['--admin']);
  for (const u of users) await sys.addUser(u);
});
afterAll(() => sys?.stop());

it('every report answered 200 is stored exactly once although the gateway and the intake worker are killed -9 under load', async () => {
  let chaos = true;
  const kills: string[] = [];
  const chaosMonkey = (async () => {
    for (let i = 0; i < 6 && chaos; i++) {
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 700));
      const app = i % 2 === 0 ? 'gateway' : 'intake';
      await sys.stopApp(app, 'SIGKILL');
      kills.push(app);
      await new Promise((r) => setTimeout(r, 150));
      await sys.startApp(app);
    }
  })();
  const accepted = await submitUntil(sys, admin.auth, users, 8, async () => {
    await chaosMonkey;
    chaos = false;
  });
  expect(kills.length).toBe(6);
  expect(accepted.length).toBeGreaterThan(50);
  const { missing, duplicated, listed } = await acceptedAreListedOnce(sys, admin.auth, users, accepted, 60_000);
  process.stderr.write(`kill -9 test: ${accepted.length} reports answered 200, ${listed} listed, ${kills.length} kills\n`);
  expect(missing).toEqual([]);
  expect(duplicated).toEqual([]);
  // The system still works after the storm.
  expect((await sys.post('/v1/reports/new', admin.auth, report(users[0]!, 'after-storm'))).status).toBe(200);
});

describe('takeover after a crash, with the default job lock', () => {
  let slow: System;
  let key: Key;
  const user = '830';

  beforeAll(async () => {
    // A long busy wait keeps the worker inside a job while another process holds the SQLite lock.
    slow = await System.start({ apps: ['gateway', 'intake'], env: { MAX_REPORTS_PER_DAY: '1000000' }, appEnv: { intake: { SQLITE_BUSY_TIMEOUT_MS: '60000' } } });
    key = await slow.createKey(['--admin']);
    await slow.addUser(user);
  });
  afterAll(() => slow?.stop());

  it('the jobs a SIGKILLed intake worker held are finished by its restart within 15 s', async () => {
    const locker = new Database(join(slow.dataDir, 'reports.db'));
    locker.exec('BEGIN EXCLUSIVE');
    const accepted: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await slow.post('/v1/reports/new', key.auth, report(user, `takeover-${i}`));
      expect(res.status).toBe(200);
      accepted.push(res.body.id);
    }
    const intake = slow.queue('intake');
    // The worker is inside a job, waiting for the SQLite lock: its job is active and locked.
    await slow.waitFor(async () => (await intake.getActiveCount()) > 0, 15_000, 'an active intake job');
    const held = (await intake.getActive()).map((j) => j.id!);
    await slow.stopApp('intake', 'SIGKILL');
    const killedAt = Date.now();
    locker.exec('COMMIT');
    locker.close();
    await slow.startApp('intake');
    // Generous for a loaded machine; the old 30 s lock and 30 s stall check took 30 to 60 s.
    await slow.waitFor(async () => (await Promise.all(held.map((id) => intake.getJobState(id)))).every((s) => s === 'completed' || s === 'unknown'), 20_000, 'the killed worker\'s jobs finished');
    process.stderr.write(`takeover test: ${held.length} held jobs finished ${Date.now() - killedAt} ms after the kill\n`);
    const { missing, duplicated } = await acceptedAreListedOnce(slow, key.auth, [user], accepted, 15_000);
    expect(missing).toEqual([]);
    expect(duplicated).toEqual([]);
  });
});
