import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report, System, type Key } from './harness.js';
import { TEST_POLICY, writePolicy } from './triage-policy.js';

// A deadline more than a minute out waits in its decision's outbox; the moderation worker's sweep
// (every 5 s, effects pending 10 s) schedules its delayed job a minute before it is due, unless the
// case has moved on by then. Due 72 s after the claim here: its effect waits 12 s, then the sweep
// takes it within 10 to 15 s.
const CLAIM_TTL_S = 72;
const POLICY = { ...TEST_POLICY, rules: [], claimTtl: `PT${CLAIM_TTL_S}S` };

let sys: System;
let admin: Key;
let nextUser = 8600;

beforeAll(async () => {
  sys = await System.start({ env: { MAX_REPORTS_PER_DAY: '1000', TRIAGE_POLICY: writePolicy(POLICY) } });
  admin = await sys.createKey(['--admin']);
  await sys.addModerator('m1', 'alice');
}, 120_000);
afterAll(() => sys?.stop());

const act = (action: string, reportId: string) => sys.post(`/v1/reports/${reportId}/${action}`, admin.auth, { moderator: { id: 'm1' } });

/** A new user with one stored report in an open case; returns the report id. */
async function openCase(): Promise<string> {
  const userId = String(nextUser++);
  await sys.addUser(userId);
  const res = await sys.post('/v1/reports/new', admin.auth, report(userId, `wd-rep-${userId}`));
  expect(res.status).toBe(200);
  await sys.waitFor(async () => (await sys.get(`/v1/reports/${userId}`, admin.auth)).body.count === 1, 15_000, 'report stored');
  return res.body.id;
}

describe('deadlines that wait in the outbox', () => {
  it("a claim's expiry is scheduled by the sweep a minute before it is due, on time; a claim followed by a decision gets none", async () => {
    const left = await openCase();
    const decided = await openCase();
    expect((await act('claim', left)).status).toBe(200);
    const claimedAt = Date.now();
    expect((await act('claim', decided)).status).toBe(200);
    expect((await act('approve', decided)).status).toBe(200);

    const expiries = async () => (await sys.queue('deadlines').getJobs(['delayed', 'waiting', 'active', 'completed'])).filter((j) => j.name === 'claim.expiry');
    // Nothing in Redis while the expiries wait in the outbox.
    expect(await expiries()).toEqual([]);
    await sys.waitFor(async () => (await expiries()).length > 0, 45_000, 'the sweep scheduled an expiry');
    // Two sweeps more: the decided claim's expiry, due with it, never comes.
    await new Promise((r) => setTimeout(r, 11_000));
    const jobs = await expiries();
    expect(jobs).toHaveLength(1);
    const job = jobs[0]!;
    const c = (await sys.get(`/v1/cases/${job.data.caseId}`, admin.auth)).body.case;
    expect(c.reports.map((r: { id: string }) => r.id)).toEqual([left]);
    expect(job.data.claimDecisionId).toBe(c.decisions[0].decisionId);
    // Still due when the claim's TTL ends, not a minute early or a sweep late.
    const dueAt = job.timestamp + (job.opts.delay ?? 0);
    expect(Math.abs(dueAt - (claimedAt + CLAIM_TTL_S * 1000))).toBeLessThan(3_000);
    expect(await job.getState()).toBe('delayed');
  }, 90_000);
});
