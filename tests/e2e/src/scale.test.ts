import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report, System, type Key } from './harness.js';
import { acceptedAreListedOnce } from './faults/load.js';

// Two gateways and two of each worker against one Redis and one store, as when scaled out.
let a: System;
let b: System;
let admin: Key;
const users = ['880', '881', '882', '883'];

beforeAll(async () => {
  a = await System.start({ env: { MAX_REPORTS_PER_DAY: '1000000', JOB_LOCK_MS: '2000' } });
  b = await a.alongside();
  admin = await a.createKey(['--admin']);
  for (const u of users) await a.addUser(u);
  await a.addModerator('m1', 'alice');
  await a.addModerator('m2', 'bob');
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

describe('two of everything', () => {
  it('submits spread over both gateways are all stored, once', async () => {
    // Ten in flight at a time, as a game's servers send them: 120 at once on a machine whose one
    // core also runs both systems can outlast the request path's 2 s Redis command timeout.
    const accepted: string[] = [];
    let next = 0;
    const sender = async () => {
      for (let i = next++; i < 120; i = next++) {
        const gateway = i % 2 === 0 ? a : b;
        const res = await gateway.post('/v1/reports/new', admin.auth, report(users[i % users.length]!, `scale-${i}`));
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        accepted.push(res.body.id);
      }
    };
    await Promise.all(Array.from({ length: 10 }, sender));
    const { missing, duplicated } = await acceptedAreListedOnce(b, admin.auth, users, accepted, 30_000);
    expect(accepted).toHaveLength(120);
    expect(missing).toEqual([]);
    expect(duplicated).toEqual([]);
  });

  it('two moderators racing through different gateways: exactly one wins, every time', async () => {
    for (let round = 0; round < 5; round++) {
      const userId = String(890 + round);
      await a.addUser(userId);
      const submitted = await a.post('/v1/reports/new', admin.auth, report(userId, `race-${round}`));
      await a.waitFor(async () => (await b.get(`/v1/reports/${userId}`, admin.auth)).body.count === 1);
      const [x, y] = await Promise.all([
        a.post(`/v1/reports/${submitted.body.id}/claim`, admin.auth, { moderator: { id: 'm1' } }),
        b.post(`/v1/reports/${submitted.body.id}/claim`, admin.auth, { moderator: { id: 'm2' } }),
      ]);
      expect([x.status, y.status].sort()).toEqual([200, 403]);
    }
  });

  it('killing one intake worker of the pair mid-load loses nothing: the other takes its jobs over', async () => {
    const accepted: string[] = [];
    let sending = true;
    const load = (async () => {
      for (let i = 0; sending; i++) {
        const gateway = i % 2 === 0 ? a : b;
        const res = await gateway.post('/v1/reports/new', admin.auth, report(users[i % users.length]!, `kill-${i}`));
        if (res.status === 200) accepted.push(res.body.id);
      }
    })();
    // Counted in reports, not in time: a slow machine accepts fewer in a second.
    const acceptedAtLeast = (n: number) => a.waitFor(async () => accepted.length >= n, 30_000, `${n} reports accepted`);
    try {
      await acceptedAtLeast(15);
      expect(await a.stopApp('intake', 'SIGKILL')).toBe(null);
      await acceptedAtLeast(accepted.length + 15);
    } finally {
      sending = false;
      await load;
    }
    const { missing, duplicated } = await acceptedAreListedOnce(b, admin.auth, users, accepted, 30_000);
    expect(accepted.length).toBeGreaterThan(20);
    expect(missing).toEqual([]);
    expect(duplicated).toEqual([]);
  });
});
