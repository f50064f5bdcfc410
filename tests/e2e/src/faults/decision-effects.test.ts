import { afterAll, beforeAll, expect, it } from 'vitest';
import { FakePlatform } from '../fake-platform.js';
import { report, System, type Key } from '../harness.js';

// The outbox under crashes: the moderation worker is killed -9 at random points while decisions
// stream in. Afterwards every committed approval (every sanction.created in the feed) has all its
// effects, none twice: the decision webhook and the sanction webhook exactly once each, the ban
// flag the check reads, the ban API.
let fake: FakePlatform;
let sys: System;
let admin: Key;
const users = Array.from({ length: 10 }, (_, i) => String(880 + i));

beforeAll(async () => {
  fake = await FakePlatform.start();
  sys = await System.start({
    env: {
      MAX_REPORTS_PER_DAY: '1000',
      JOB_LOCK_MS: '2000',
      DECISION_TIMEOUT_MS: '3000',
      DECISION_WEBHOOK_URL: `${fake.url}/hooks/decisions`,
      DECISION_WEBHOOK_SECRET: 'crash-secret',
      NOTIFY_BACKOFF_MS: '50',
    },
  });
  admin = await sys.createKey(['--admin']);
  await sys.addModerator('m1', 'alice');
  await Promise.all(users.map((u) => sys.addUser(u)));
}, 180_000);
afterAll(async () => {
  await sys?.stop();
  await fake?.stop();
});

it('every committed decision has all its effects exactly once although the moderation worker is killed -9 under a stream of decisions', async () => {
  const reportIds = new Map<string, string>();
  for (const u of users) {
    const res = await sys.post('/v1/reports/new', admin.auth, report(u, `rep-${u}`));
    expect(res.status).toBe(200);
    reportIds.set(u, res.body.id);
  }
  await sys.waitFor(async () => {
    for (const u of users) if ((await sys.get(`/v1/reports/${u}`, admin.auth)).body.count !== 1) return false;
    return true;
  }, 30_000, 'reports stored');

  let streaming = true;
  let kills = 0;
  const chaos = (async () => {
    while (streaming) {
      await new Promise((r) => setTimeout(r, 200 + Math.random() * 800));
      await sys.stopApp('moderation', 'SIGKILL');
      kills += 1;
      await new Promise((r) => setTimeout(r, 100));
      await sys.startApp('moderation');
    }
  })();
  // Each user: claim then approve, retried until answered (a call may time out while the worker is down).
  const decideUntilAnswered = async (action: string, reportId: string) => {
    for (let i = 0; i < 20; i++) {
      const res = await sys.post(`/v1/reports/${reportId}/${action}`, admin.auth, { moderator: { id: 'm1' } });
      if (res.status !== 500) return res;
    }
    throw new Error(`${action} never answered`);
  };
  // Users start in pairs, so the gateway sends decisions in batches of two too (one job), and kills
  // fall on batches.
  await Promise.all(
    users.map(async (u, i) => {
      await new Promise((r) => setTimeout(r, Math.floor(i / 2) * 150));
      await decideUntilAnswered('claim', reportIds.get(u)!);
      await decideUntilAnswered('approve', reportIds.get(u)!);
    }),
  );
  streaming = false;
  await chaos;
  expect(kills).toBeGreaterThan(0);

  const created = (await sys.get('/v1/sanctions?limit=1000', admin.auth)).body.events.filter((e: any) => e.type === 'sanction.created');
  // Every approval was answered (retried until it was): each user is sanctioned exactly once.
  expect(created.map((e: any) => e.userId).sort()).toEqual([...users].sort());
  const hooks = () => fake.requests('POST', 'hooks');
  await sys.waitFor(
    async () => created.every((e: any) => hooks().some((h) => h.headers['x-event-id'] === `sanction-${e.seq}`) && hooks().some((h) => h.headers['x-event-id'] === e.sanctionId)),
    60_000,
    'every webhook of every committed approval',
  );
  for (const e of created) {
    const delivered = (id: string) => hooks().filter((h) => h.headers['x-event-id'] === id && h.status < 300);
    expect(delivered(`sanction-${e.seq}`), `sanction webhook of ${e.userId}`).toHaveLength(1);
    expect(delivered(e.sanctionId), `decision webhook of ${e.userId}`).toHaveLength(1);
    expect((await sys.get(`/v1/sanctions/${e.userId}`, admin.auth)).body.banned).toBe(true);
    const check = await sys.post('/v1/reports/check', admin.auth, { userId: e.userId, reporterId: 'after-the-storm' });
    expect(check.body.canReport, `check of ${e.userId}`).toBe(false);
  }
  process.stderr.write(`outbox kill -9 test: ${created.length} approvals, ${kills} kills of the moderation worker\n`);
}, 240_000);
