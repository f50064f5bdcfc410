import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { System, type Key } from '../harness.js';
import { acceptedAreListedOnce, submitUntil } from './load.js';

let sys: System;
let admin: Key;
const users = ['870', '871'];

beforeAll(async () => {
  // Writers give up on a held lock after 50 ms, so the intake jobs fail and are retried.
  sys = await System.start({ apps: ['gateway', 'intake'], env: { MAX_REPORTS_PER_DAY: '1000000', SQLITE_BUSY_TIMEOUT_MS: '50' } });
  admin = await sys.createKey(['--admin']);
  for (const u of users) await sys.addUser(u);
});
afterAll(() => sys?.stop());

it('while the SQLite file is locked, intake jobs fail and are retried; afterwards every accepted report is stored once', async () => {
  // Another process holds the write lock (what a stuck backup or a long migration would do).
  const locker = new Database(join(sys.dataDir, 'reports.db'));
  locker.exec('BEGIN EXCLUSIVE');
  const accepted = await submitUntil(sys, admin.auth, users, 4, () => new Promise((r) => setTimeout(r, 2000)));
  const intake = sys.queue('intake');
  // Nothing could be stored yet: the jobs are failing and waiting for their retry.
  await sys.waitFor(async () => ((await intake.getJobCounts('delayed')).delayed ?? 0) > 0, 15_000, 'intake retries');
  locker.exec('COMMIT');
  locker.close();

  const { missing, duplicated, listed } = await acceptedAreListedOnce(sys, admin.auth, users, accepted, 60_000);
  process.stderr.write(`storage lock test: ${accepted.length} accepted while locked, ${listed} listed after the lock\n`);
  expect(accepted.length).toBeGreaterThan(0);
  expect(missing).toEqual([]);
  expect(duplicated).toEqual([]);
  expect(await intake.getFailedCount()).toBe(0);
});
