import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { System, type Key } from '../harness.js';
import { acceptedAreListedOnce, submitUntil } from './load.js';

let sys: System;
let admin: Key;
const users = ['880', '881'];
/** Attempts an intake job had before it failed for good, before jobs were retried until stored. */
const OLD_ATTEMPTS = 10;

beforeAll(async () => {
  // Writers give up on a held lock at once and retry every 100-200 ms: the old ten attempts pass in
  // a few seconds instead of minutes.
  sys = await System.start({
    apps: ['gateway', 'intake'],
    env: { MAX_REPORTS_PER_DAY: '1000000', SQLITE_BUSY_TIMEOUT_MS: '20' },
    appEnv: { intake: { INTAKE_RETRY_MAX_MS: '200' } },
  });
  admin = await sys.createKey(['--admin']);
  for (const u of users) await sys.addUser(u);
});
afterAll(() => sys?.stop());

it('an intake job is retried past the old attempt limit while the store refuses writes, and every accepted report is then stored once', async () => {
  const locker = new Database(join(sys.dataDir, 'reports.db'));
  locker.exec('BEGIN EXCLUSIVE');
  const accepted = await submitUntil(sys, admin.auth, users, 4, () => new Promise((r) => setTimeout(r, 1000)));
  const intake = sys.queue('intake');
  const mostAttempts = async () => Math.max(0, ...(await intake.getJobs(['delayed', 'wait', 'active', 'failed'])).map((j) => j.attemptsMade));
  await sys.waitFor(async () => (await mostAttempts()) > OLD_ATTEMPTS + 2, 60_000, `an intake job past ${OLD_ATTEMPTS} attempts`);
  expect(await intake.getFailedCount()).toBe(0);
  locker.exec('COMMIT');
  locker.close();

  const { missing, duplicated, listed } = await acceptedAreListedOnce(sys, admin.auth, users, accepted, 60_000);
  process.stderr.write(`intake retry test: ${accepted.length} accepted while locked, ${listed} listed after the lock, ${await mostAttempts()} attempts at most\n`);
  expect(accepted.length).toBeGreaterThan(0);
  expect(missing).toEqual([]);
  expect(duplicated).toEqual([]);
  expect(await intake.getFailedCount()).toBe(0);
});
