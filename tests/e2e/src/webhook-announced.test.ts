import { afterAll, beforeAll, expect, it } from 'vitest';
import { FakePlatform } from './fake-platform.js';
import { report, System, type Key } from './harness.js';

// A decision webhook configured while the moderation worker runs: the notification worker that
// has it starts later and announces it. The moderation worker had found no webhook; it hears the
// announcement on its subscription (WebhookFlag.watch) and queues the webhooks of the decisions
// after it, without a restart.
let fake: FakePlatform;
let sys: System;
let admin: Key;
let nextUser = 9100;

beforeAll(async () => {
  fake = await FakePlatform.start();
  sys = await System.start({
    apps: ['gateway', 'intake', 'moderation'],
    env: { MAX_REPORTS_PER_DAY: '1000', NOTIFY_BACKOFF_MS: '50' },
    appEnv: { notification: { DECISION_WEBHOOK_URL: `${fake.url}/hooks/decisions`, DECISION_WEBHOOK_SECRET: 'announced-secret' } },
  });
  admin = await sys.createKey(['--admin']);
  await sys.addModerator('m1', 'alice');
});
afterAll(async () => {
  await sys?.stop();
  await fake?.stop();
});

/** A report about a new player, stored; its id and the player's. */
async function reported(): Promise<{ userId: string; reportId: string }> {
  const userId = String(nextUser++);
  await sys.addUser(userId);
  const res = await sys.post('/v1/reports/new', admin.auth, report(userId, `rep-${userId}`));
  expect(res.status).toBe(200);
  await sys.waitFor(async () => (await sys.get(`/v1/reports/${userId}`, admin.auth)).body.reports?.some((r: any) => r.repid === res.body.id), 15_000, 'report stored');
  return { userId, reportId: res.body.id as string };
}

async function approve(reportId: string): Promise<void> {
  expect((await sys.post(`/v1/reports/${reportId}/claim`, admin.auth, { moderator: { id: 'm1' } })).status).toBe(200);
  expect((await sys.post(`/v1/reports/${reportId}/approve`, admin.auth, { moderator: { id: 'm1' } })).status).toBe(200);
}

const hooksAbout = (userId: string) => fake.requests('POST', 'hooks').filter((r) => r.body.userId === userId);

it('a webhook announced after the moderation worker started is sent for the next decisions, not for earlier ones', async () => {
  // No worker has a webhook yet: this approval queues no sanction webhook.
  const before = await reported();
  await approve(before.reportId);
  // Stored before the webhook comes, so that its approval follows the announcement closely.
  const after = await reported();

  await sys.startApp('notification');
  await approve(after.reportId);
  await sys.waitFor(async () => hooksAbout(after.userId).some((r) => r.body.event === 'sanction.created'), 15_000, 'the sanction webhook of the decision after the announcement');
  // A decision made before any worker had a webhook is not sent (docs/decisions.md).
  expect(hooksAbout(before.userId)).toEqual([]);
});
