import { afterAll, beforeAll, expect, it } from 'vitest';
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
