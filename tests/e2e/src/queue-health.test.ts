import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, report, System, type Key } from './harness.js';
import { categorized, TEST_POLICY, writePolicy } from './triage-policy.js';

// Claims that expire and SLAs that escalate: delayed jobs on the deadlines queue, run by the
// moderation worker, timed by the triage policy's claimTtl and per-category sla. A few seconds
// here for `other` (the category of `report()`); cheating cases wait a day.
const CLAIM_TTL_S = 6;
const SLA_S = 5;
const POLICY = {
  ...TEST_POLICY,
  rules: [],
  categories: { ...TEST_POLICY.categories, cheating: { severity: 5, sla: 'P1D', clause: 'Follow the code of conduct.' }, other: { severity: 0, sla: `PT${SLA_S}S`, clause: 'Follow the code of conduct.' } },
  claimTtl: `PT${CLAIM_TTL_S}S`,
};

let sys: System;
let admin: Key;
let metricsPort: number;
let nextUser = 8100;
let nextReporter = 0;

beforeAll(async () => {
  metricsPort = await freePort();
  sys = await System.start({
    env: { MAX_REPORTS_PER_DAY: '1000', TRIAGE_POLICY: writePolicy(POLICY) },
    appEnv: { moderation: { METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' } },
  });
  admin = await sys.createKey(['--admin']);
  await sys.addModerator('m1', 'alice');
  await sys.addModerator('m2', 'bob');
}, 120_000);
afterAll(() => sys?.stop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const act = (action: string, reportId: string, moderatorId: string) => sys.post(`/v1/reports/${reportId}/${action}`, admin.auth, { moderator: { id: moderatorId } });

/** A new user with one stored report in an open case. */
async function openCase(): Promise<{ userId: string; reportId: string }> {
  const userId = String(nextUser++);
  await sys.addUser(userId);
  const res = await sys.post('/v1/reports/new', admin.auth, report(userId, `qh-rep-${nextReporter++}`));
  expect(res.status).toBe(200);
  await sys.waitFor(async () => (await sys.get(`/v1/reports/${userId}`, admin.auth)).body.count === 1, 15_000, 'report stored');
  return { userId, reportId: res.body.id };
}

/** `case history` rows after the header line: [when, action, moderator, from, to]. */
async function history(reportId: string): Promise<{ state: string; rows: string[][] }> {
  const out = await sys.cli(['case', 'history', reportId]);
  expect(out.code, out.stderr).toBe(0);
  const lines = out.stdout.trim().split('\n');
  return { state: lines[0]!, rows: lines.slice(2).map((l) => l.trim().split(/\s+/)) };
}

const messages = async () =>
  JSON.parse((await sys.cli(['messages', 'list', '--limit', '1000', '--json'])).stdout) as { id: string; channel: string; kind: string; content: string }[];

/** The deadline jobs of one kind that have run, with what they concluded. */
async function ranDeadlines(kind: string): Promise<{ data: any; returnvalue: string }[]> {
  const jobs = await sys.queue('deadlines').getJobs(['completed']);
  return jobs.filter((j) => j.name === kind).map((j) => ({ data: j.data, returnvalue: j.returnvalue as string }));
}

describe('claims expire', () => {
  it('a claim not followed by a decision is released by the system after the policy claimTtl, across a restart of every process', async () => {
    const { reportId } = await openCase();
    expect((await act('claim', reportId, 'm1')).status).toBe(200);
    const claimedAt = Date.now();

    // Every process goes down between the claim and its expiry; the delayed job waits in Redis.
    for (const app of ['gateway', 'intake', 'moderation', 'notification'] as const) await sys.stopApp(app);
    await sleep(Math.max(0, claimedAt + CLAIM_TTL_S * 1000 + 500 - Date.now()));
    for (const app of ['gateway', 'intake', 'moderation', 'notification'] as const) await sys.startApp(app);

    await sys.waitFor(async () => (await history(reportId)).rows.some((r) => r[2] === 'system'), 30_000, 'the claim released');
    const h = await history(reportId);
    expect(h.state).toMatch(/: open, 1 report/);
    expect(h.rows.map((r) => [r[1], r[2], r[3], r[4]])).toEqual([
      ['claim', 'm1', 'open', 'claimed'],
      ['unclaim', 'system', 'claimed', 'open'],
    ]);
    // The case message says so, and another moderator may take the case.
    await sys.waitFor(
      async () => (await messages()).some((m) => m.channel === 'reports' && m.content.includes(reportId) && m.content.includes('Status: open, unclaimed')),
      15_000,
      'the case message updated',
    );
    expect((await act('claim', reportId, 'm2')).status).toBe(200);
  }, 90_000);

  it('a decision or a re-claim after the claim is never undone by its stale expiry', async () => {
    const decided = await openCase();
    const reclaimed = await openCase();
    expect((await act('claim', decided.reportId, 'm1')).status).toBe(200);
    expect((await act('approve', decided.reportId, 'm1')).status).toBe(200);
    expect((await act('claim', reclaimed.reportId, 'm1')).status).toBe(200);
    expect((await act('unclaim', reclaimed.reportId, 'm1')).status).toBe(200);
    expect((await act('claim', reclaimed.reportId, 'm2')).status).toBe(200);

    // The re-claim's own expiry releases it, after m2's claim. Both first claims' expiries were due
    // earlier; whether each was scheduled and found stale, or found moot in the outbox and never
    // scheduled, is the machine's race: the histories are what must hold either way.
    await sys.waitFor(async () => (await history(reclaimed.reportId)).rows.some((r) => r[2] === 'system'), 30_000, 'the re-claim released');
    // Every claim expiry in this file was due by now (the previous test's last claim too).
    const q = sys.queue('deadlines');
    await sys.waitFor(async () => (await q.getJobs(['delayed', 'waiting', 'active', 'prioritized'])).every((j) => j.name !== 'claim.expiry'), 30_000, 'no claim expiry left to run');
    const d = await history(decided.reportId);
    expect(d.state).toMatch(/: approved/);
    expect(d.rows.map((r) => r[2])).not.toContain('system');
    const r = await history(reclaimed.reportId);
    expect(r.rows.map((row) => [row[1], row[2]])).toEqual([
      ['claim', 'm1'],
      ['unclaim', 'm1'],
      ['claim', 'm2'],
      ['unclaim', 'system'],
    ]);
  }, 90_000);
});

describe('SLA escalation', () => {
  const escalations = async (reportId: string) => (await messages()).filter((m) => m.channel === 'escalations' && m.content.includes(reportId));
  const breachesMetric = async () => {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    return Number(/^rm_sla_breaches_total\{category="other"[^}]*\} (\d+)$/m.exec(text)?.[1] ?? 0);
  };

  it('a case still unclaimed after its SLA is escalated once: escalation channel, flag, metric; a claimed one is not', async () => {
    const before = await breachesMetric();
    const waiting = await openCase();
    const taken = await openCase();
    expect((await act('claim', taken.reportId, 'm1')).status).toBe(200);

    await sys.waitFor(async () => (await escalations(waiting.reportId)).length > 0, 30_000, 'the escalation');
    const [message] = await escalations(waiting.reportId);
    expect(message!.content).toMatch(/SLA breached/);
    expect(message!.content).toContain(waiting.userId);
    expect(await breachesMetric()).toBe(before + 1);

    // The same check delivered again (as after a crash) escalates nothing twice.
    const [job] = (await ranDeadlines('sla.check')).filter((j) => j.data.openingId === 'opened' && j.returnvalue === 'escalated' && message!.content.includes(j.data.caseId));
    expect(job).toBeDefined();
    await sys.queue('deadlines').add('sla.check', job!.data, { jobId: `again-${job!.data.caseId}` });
    await sys.waitFor(async () => (await sys.queue('deadlines').getJobState(`again-${job!.data.caseId}`)) === 'completed', 15_000, 'the repeat ran');
    expect(await escalations(waiting.reportId)).toHaveLength(1);
    expect(await breachesMetric()).toBe(before + 1);

    // The claimed case met its SLA: once no SLA check is left to run, it has no escalation.
    const q = sys.queue('deadlines');
    await sys.waitFor(async () => (await q.getJobs(['delayed', 'waiting', 'active'])).every((j) => j.name !== 'sla.check'), 30_000, 'every SLA check ran');
    expect(await escalations(taken.reportId)).toHaveLength(0);

  }, 90_000);

  it('an undo reopens the case and its SLA runs again: escalated once more for the new opening', async () => {
    const { reportId } = await openCase();
    expect((await act('approve', reportId, 'm1')).status).toBe(200);
    // Decided before its SLA: no escalation for its first opening.
    expect((await act('undo', reportId, 'm1')).status).toBe(200);
    await sys.waitFor(async () => (await escalations(reportId)).length > 0, 30_000, 'the escalation of the reopened case');
    const [message] = await escalations(reportId);
    // The first opening's check (scheduled by intake, so it always runs) found the case reopened
    // since (stale); the reopening's escalated.
    const checks = async () => (await ranDeadlines('sla.check')).filter((j) => message!.content.includes(j.data.caseId));
    await sys.waitFor(async () => (await checks()).length === 2, 15_000, 'both checks ran');
    expect((await checks()).find((j) => j.data.openingId !== 'opened')?.returnvalue).toBe('escalated');
    expect((await checks()).find((j) => j.data.openingId === 'opened')?.returnvalue).toBe('stale');
    expect(await escalations(reportId)).toHaveLength(1);
  }, 60_000);
});

describe('deadlines schedule (CLI)', () => {
  it('gives open cases without deadlines (from before an upgrade) their SLA check and claim expiry; repeating it adds nothing', async () => {
    const waiting = await openCase();
    const claimed = await openCase();
    const q = sys.queue('deadlines');
    const claimedAt = Date.now();
    expect((await act('claim', claimed.reportId, 'm1')).status).toBe(200);
    // The claim's expiry is scheduled right after its answer (an effect of the claim): waited for,
    // so the drain below takes it too.
    await sys.waitFor(async () => (await q.getDelayed()).some((j) => j.data.kind === 'claim.expiry' && j.timestamp >= claimedAt), 15_000, "the claim's expiry scheduled");
    // As before the upgrade: no deadline waits in Redis.
    await q.drain(true);
    expect(await q.getDelayedCount()).toBe(0);

    const first = await sys.cli(['deadlines', 'schedule']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/deadlines of \d+ open case\(s\) scheduled \([1-9]\d* claim expiry/);
    const total = async () => Object.values(await q.getJobCounts('delayed', 'waiting', 'active', 'completed', 'failed')).reduce((a, b) => a + b, 0);
    const scheduled = await total();
    const again = await sys.cli(['deadlines', 'schedule']);
    expect(again.code, again.stderr).toBe(0);
    expect(await total()).toBe(scheduled);

    await sys.waitFor(async () => (await history(claimed.reportId)).rows.some((r) => r[2] === 'system'), 30_000, 'the claim released');
    await sys.waitFor(async () => (await messages()).some((m) => m.channel === 'escalations' && m.content.includes(waiting.reportId)), 30_000, 'the escalation');
  }, 90_000);

  it('refuses an invalid policy file with one line naming the field', async () => {
    const out = await sys.cli(['deadlines', 'schedule'], { TRIAGE_POLICY: writePolicy({ ...POLICY, claimTtl: '30 minutes' }) });
    expect(out.code).toBe(1);
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
    expect(out.stderr).toMatch(/TRIAGE_POLICY: claimTtl: must be a positive ISO 8601 duration/);
  });
});

describe('GET /v1/stats on this system', () => {
  it('counts expired claims and SLA breaches', async () => {
    const res = await sys.get('/v1/stats?window=P1D', admin.auth);
    expect(res.status).toBe(200);
    expect(res.body.decisions.expire).toBeGreaterThanOrEqual(2);
    expect(res.body.slaBreaches).toBeGreaterThanOrEqual(2);
    // The escalated cases still open carry the stored flag.
    expect(res.body.openSlaBreached).toBeGreaterThanOrEqual(1);
    expect(res.body.byCategory).toEqual([expect.objectContaining({ category: 'other', slaBreaches: res.body.slaBreaches })]);
    // An expiry counts against the moderator whose claim expired.
    const m1 = res.body.byModerator.find((m: { moderatorId: string }) => m.moderatorId === 'm1');
    expect(m1.decisions.expire).toBeGreaterThanOrEqual(1);
  });

  it("a case's category and priority band come from its triage: its own SLA, its own figures, band high", async () => {
    const userId = String(nextUser++);
    await sys.addUser(userId);
    const res = await sys.post('/v1/reports/new', admin.auth, categorized(userId, `qh-rep-${nextReporter++}`, 'cheating'));
    expect(res.status).toBe(200);
    // Triaged by the notification worker: severity 5 × weight 10 = 50, the high band.
    await sys.waitFor(async () => {
      const s = await sys.get('/v1/stats?window=P1D', admin.auth);
      return s.body.byCategory.some((c: { category: string; open: number }) => c.category === 'cheating' && c.open === 1);
    }, 15_000, 'the cheating case counted in its category');
    const metrics = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(await metrics()).toMatch(/^rm_open_cases\{band="high",state="open"[^}]*\} 1$/m);
    // Cases of `other` (severity 0) are low.
    expect(await metrics()).toMatch(/^rm_open_cases\{band="low",state="open"[^}]*\} [1-9]\d*$/m);
    // Its SLA is the cheating one (a day), not the few seconds of `other`.
    const checks = await sys.queue('deadlines').getJobs(['delayed']);
    const check = checks.find((j) => j.name === 'sla.check' && j.data.category === 'cheating');
    expect(check).toBeDefined();
    expect(check!.opts.delay).toBeGreaterThan(23 * 3_600_000);
    const s = await sys.get('/v1/stats?window=P1D', admin.auth);
    expect(s.body.byCategory.find((c: { category: string }) => c.category === 'cheating')).toEqual(expect.objectContaining({ open: 1, slaBreaches: 0 }));
  });
});
