import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report, System, type Key } from './harness.js';
import { RedisCluster } from './redis-cluster.js';
import { TEST_POLICY, writePolicy } from './triage-policy.js';

// The whole system on a real 3-master Redis Cluster (REDIS_CLUSTER_NODES), all of its processes.
let cluster: RedisCluster;
let sys: System;
let admin: Key;
const users = Array.from({ length: 12 }, (_, i) => String(7100 + i));

beforeAll(async () => {
  cluster = await RedisCluster.start(3);
  sys = await System.start({
    env: { REDIS_URL: `redis://127.0.0.1:${cluster.ports[0]}`, REDIS_CLUSTER_NODES: cluster.nodes, MAX_REPORTS_PER_DAY: '1000', TRIAGE_POLICY: writePolicy({ ...TEST_POLICY, rules: [], claimTtl: 'PT3S' }) },
  });
  admin = await sys.createKey(['--admin']);
  for (const u of users) await sys.addUser(u);
  await sys.addModerator('m1', 'alice');
}, 120_000);
afterAll(async () => {
  await sys?.stop();
  await cluster?.stop();
});

/** How many of this system's keys matching `pattern` (after the prefix) each node holds. */
async function keysPerNode(pattern: string): Promise<number[]> {
  return Promise.all(cluster.ports.map(async (port) => (await cluster.keysOn(port, pattern)).length));
}

describe('on a Redis Cluster', () => {
  it('submit, check and list work; per-user keys spread over the nodes, each queue stays in one slot', async () => {
    for (const userId of users) {
      const first = await sys.post('/v1/reports/new', admin.auth, report(userId, `c-${userId}-a`));
      expect(first.status).toBe(200);
      expect(first.body.appended).toBeUndefined();
      const second = await sys.post('/v1/reports/new', admin.auth, report(userId, `c-${userId}-b`));
      expect(second.status).toBe(200);
      expect(second.body.appended).toBe(true);
      const again = await sys.post('/v1/reports/new', admin.auth, report(userId, `c-${userId}-a`));
      expect(again.status).toBe(400);
      expect(again.body.message).toMatch(/already reported/);
    }
    const check = await sys.post('/v1/reports/check', admin.auth, { userId: users[0], reporterId: `c-${users[0]}-a` });
    expect(check.body).toMatchObject({ canReport: false, reason: expect.stringMatching(/already reported/) });
    expect((await sys.post('/v1/reports/check', admin.auth, { userId: users[0], reporterId: 'fresh' })).body.canReport).toBe(true);
    for (const userId of users) {
      await sys.waitFor(async () => (await sys.get(`/v1/reports/${userId}`, admin.auth)).body.count === 2, 15_000, `reports about ${userId} stored`);
    }

    const userKeys = await keysPerNode(`${sys.prefix}:u:*`);
    expect(userKeys.reduce((a, b) => a + b)).toBeGreaterThanOrEqual(users.length * 2);
    expect(userKeys.filter((n) => n > 0).length, `user keys per node: ${userKeys}`).toBeGreaterThan(1);
    for (const queue of ['intake', 'notifications']) {
      const queueKeys = await keysPerNode(`{${sys.prefix}:${queue}}`);
      expect(queueKeys.filter((n) => n > 0), `${queue} keys per node: ${queueKeys}`).toHaveLength(1);
    }
  });

  it('the full decision cycle: claim, approve (ban), undo, dismiss', async () => {
    const userId = users[1]!;
    const ids = (await sys.get(`/v1/reports/${userId}`, admin.auth)).body.reports.map((r: { repid: string }) => r.repid);
    const act = (action: string, id: string) => sys.post(`/v1/reports/${id}/${action}`, admin.auth, { moderator: { id: 'm1' } });

    expect((await act('claim', ids[0])).status).toBe(200);
    expect((await act('approve', ids[0])).status).toBe(200);
    const banned = await sys.post('/v1/reports/new', admin.auth, report(userId, 'after-ban'));
    expect(banned.status).toBe(400);
    expect(banned.body.message).toMatch(/banned/);
    expect((await sys.get(`/v1/reports/${userId}`, admin.auth)).body.reports.every((r: { banned: boolean }) => r.banned)).toBe(true);

    expect((await act('undo', ids[1])).status).toBe(200);
    expect((await sys.post('/v1/reports/check', admin.auth, { userId, reporterId: 'after-ban' })).body.canReport).toBe(true);
    expect((await act('dismiss', ids[0])).status).toBe(200);
    // A dismissed case frees its reporters to report the user again.
    expect((await sys.post('/v1/reports/new', admin.auth, report(userId, `c-${userId}-a`))).status).toBe(200);
  });

  it('a claim expires: the delayed job on the deadlines queue (one slot) releases it', async () => {
    const userId = users[2]!;
    const [id] = (await sys.get(`/v1/reports/${userId}`, admin.auth)).body.reports.map((r: { repid: string }) => r.repid);
    expect((await sys.post(`/v1/reports/${id}/claim`, admin.auth, { moderator: { id: 'm1' } })).status).toBe(200);
    const released = async () => /unclaim\s+system/.test((await sys.cli(['case', 'history', id])).stdout);
    await sys.waitFor(released, 30_000, 'the claim released');
    const deadlineKeys = await keysPerNode(`{${sys.prefix}:deadlines}`);
    expect(deadlineKeys.filter((n) => n > 0), `deadlines keys per node: ${deadlineKeys}`).toHaveLength(1);
  });

  it('sanctions: the ban API, the feed and an expiry by delayed job work on the cluster', async () => {
    const userId = users[3]!;
    const [id] = (await sys.get(`/v1/reports/${userId}`, admin.auth)).body.reports.map((r: { repid: string }) => r.repid);
    expect((await sys.post(`/v1/reports/${id}/claim`, admin.auth, { moderator: { id: 'm1' } })).status).toBe(200);
    expect((await sys.post(`/v1/reports/${id}/approve`, admin.auth, { moderator: { id: 'm1' }, duration: 'PT2S', reason: 'cluster' })).status).toBe(200);
    const status = await sys.get(`/v1/sanctions/${userId}`, admin.auth);
    expect(status.body).toMatchObject({ banned: true, sanctions: [{ state: 'active', reason: 'cluster' }] });
    expect((await sys.get(`/v1/sanctions/${userId}`, admin.auth)).body).toEqual(status.body);
    await sys.waitFor(async () => (await sys.get(`/v1/sanctions/${userId}`, admin.auth)).body.banned === false, 20_000, 'the sanction expired');
    const events = (await sys.get('/v1/sanctions', admin.auth)).body.events.filter((e: { userId: string }) => e.userId === userId);
    expect(events.map((e: { type: string }) => e.type)).toEqual(['sanction.created', 'sanction.expired']);
    await sys.waitFor(async () => (await sys.post('/v1/reports/check', admin.auth, { userId, reporterId: 'after-expiry' })).body.canReport === true, 10_000, 'ban flag cleared');
    const sanctionKeys = await keysPerNode(`{${sys.prefix}:sanctions}`);
    expect(sanctionKeys.filter((n) => n > 0), `sanctions queue keys per node: ${sanctionKeys}`).toHaveLength(1);
  });

  it('the admin CLI reads the queues of the cluster', async () => {
    const out = await sys.cli(['queues']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/intake/);
    expect(out.stdout).toMatch(/decisions/);
  });

  it('triage: the case queue lists the cases by priority, and a decision counts the reporters’ credibility', async () => {
    const userId = users[2]!;
    await sys.waitFor(async () => (await sys.get('/v1/cases?limit=100', admin.auth)).body.cases?.some((c: { userId: string; reportCount: number }) => c.userId === userId && c.reportCount === 2), 15_000, 'case triaged');
    const listed = (await sys.get('/v1/cases?limit=100', admin.auth)).body;
    expect(listed.count).toBeGreaterThanOrEqual(users.length - 2);
    const c = listed.cases.find((x: { userId: string }) => x.userId === userId);
    const ids = (await sys.get(`/v1/reports/${userId}`, admin.auth)).body.reports.map((r: { repid: string }) => r.repid);
    expect((await sys.post(`/v1/reports/${ids[0]}/approve`, admin.auth, { moderator: { id: 'm1' } })).status).toBe(200);
    const detail = (await sys.get(`/v1/cases/${c.caseId}`, admin.auth)).body.case;
    expect(detail.state).toBe('approved');
    expect(detail.reports.map((r: { reporter: { approved: number } }) => r.reporter.approved)).toEqual([1, 1]);
  });
});
