import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { System, type Key } from './harness.js';
import { categorized, TEST_POLICY, writePolicy } from './triage-policy.js';

let sys: System;
let submitter: Key;
let handler: Key;
let viewer: Key;
const caseIds: Record<string, string> = {};

/** The policy replayed: neither rule runs in the live system (its policy has none). */
const DRY_RUN_POLICY = {
  ...TEST_POLICY,
  rules: [
    { id: 'cheat-pair', category: 'cheating', minReporters: 2, minCredibility: 0.4, window: 'PT1H', action: { type: 'escalate', boost: 10 } },
    { id: 'cheat-trusted', category: 'cheating', minReporters: 1, minCredibility: 0.6, window: 'PT1H', action: { type: 'escalate', boost: 10 } },
  ],
};

let nextUser = 8000;
/** Reports a new user (cheating), waits for its case, then decides it (or leaves it open). */
async function scenario(name: string, reporters: string[], decision: 'approve' | 'dismiss' | null): Promise<void> {
  const userId = String(nextUser++);
  await sys.addUser(userId);
  const ids: string[] = [];
  for (const r of reporters) {
    const res = await sys.post('/v1/reports/new', submitter.auth, categorized(userId, r, 'cheating'));
    expect(res.status).toBe(200);
    ids.push(res.body.id);
  }
  await sys.waitFor(async () => (await sys.get(`/v1/reports/${userId}`, viewer.auth)).body.count === reporters.length, 15_000, 'reports stored');
  if (decision) expect((await sys.post(`/v1/reports/${ids[0]}/${decision}`, handler.auth, { moderator: { id: 'm1' } })).status).toBe(200);
  await sys.waitFor(async () => (await sys.get('/v1/cases?state=' + (decision === null ? 'open' : decision === 'approve' ? 'approved' : 'dismissed') + '&limit=100', viewer.auth)).body.cases.some((c: any) => c.userId === userId && c.reportCount === reporters.length), 15_000, 'case triaged');
  const listed = (await sys.get(`/v1/cases?state=${decision === null ? 'open' : decision === 'approve' ? 'approved' : 'dismissed'}&limit=100`, viewer.auth)).body.cases;
  caseIds[name] = listed.find((c: any) => c.userId === userId).caseId;
}

beforeAll(async () => {
  sys = await System.start({ env: { MAX_REPORTS_PER_DAY: '1000', TRIAGE_POLICY: writePolicy({ ...TEST_POLICY, rules: [] }) } });
  [submitter, handler, viewer] = await Promise.all([
    sys.createKey(['--permission', 'reports.submit_report']),
    sys.createKey(['--permission', 'reports.handle_reports']),
    sys.createKey(['--permission', 'reports.view_reports']),
  ]);
  await sys.addModerator('m1', 'alice');
  // In this order: A approved (a1, a2 become credible only then), B dismissed, C (one reporter)
  // approved, D left open, F reported by a1 after A's approval, left open.
  await scenario('A', ['a1', 'a2'], 'approve');
  await scenario('B', ['b1', 'b2'], 'dismiss');
  await scenario('C', ['c1'], 'approve');
  await scenario('D', ['d1', 'd2'], null);
  await scenario('F', ['a1'], null);
}, 120_000);
afterAll(() => sys?.stop());

/** Everything the API and the chat recorder show, to compare before and after a dry run. */
async function snapshot(): Promise<unknown> {
  const lists = await Promise.all(['open', 'claimed', 'approved', 'dismissed'].map(async (s) => (await sys.get(`/v1/cases?state=${s}&limit=100`, viewer.auth)).body));
  const details = await Promise.all(Object.values(caseIds).map(async (id) => (await sys.get(`/v1/cases/${id}`, viewer.auth)).body));
  const messages = (await sys.cli(['messages', 'list', '--limit', '1000', '--json'])).stdout;
  return { lists, details, messages };
}

describe('rules dry-run', () => {
  it('--json: per rule, the cases it would have acted on, how they were decided, the approved ones it missed; with credibility as it was then', async () => {
    const r = await sys.cli(['rules', 'dry-run', '--policy', writePolicy(DRY_RUN_POLICY), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/replayed 8 reports in 5 cases/);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ since: null, reports: 8, cases: 5 });
    const [pair, trusted] = result.rules;
    expect(pair).toEqual({
      ruleId: 'cheat-pair',
      action: 'escalate',
      actedOn: 3,
      approved: 1,
      dismissed: 1,
      undecided: 1,
      missed: 1,
      actedOnCases: [caseIds['A'], caseIds['B'], caseIds['D']].sort(),
      missedCases: [caseIds['C']],
    });
    // a1 and a2 were neutral when they reported A; a1 was credible (2/3) only when reporting F.
    expect(trusted).toEqual({
      ruleId: 'cheat-trusted',
      action: 'escalate',
      actedOn: 1,
      approved: 0,
      dismissed: 0,
      undecided: 1,
      missed: 2,
      actedOnCases: [caseIds['F']],
      missedCases: [caseIds['A'], caseIds['C']].sort(),
    });
  });

  it('changes nothing', async () => {
    const before = await snapshot();
    expect((await sys.cli(['rules', 'dry-run', '--policy', writePolicy(DRY_RUN_POLICY)])).code).toBe(0);
    expect(await snapshot()).toEqual(before);
  });

  it('prints a table by default; takes --since; without --policy it uses TRIAGE_POLICY', async () => {
    const r = await sys.cli(['rules', 'dry-run', '--policy', writePolicy(DRY_RUN_POLICY), '--since', '1h']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^8 report\(s\) in 5 case\(s\) since \d{4}-/);
    expect(r.stdout).toMatch(/RULE\s+ACTION\s+ACTED ON\s+APPROVED\s+DISMISSED \(FALSE POSITIVES\)\s+UNDECIDED\s+MISSED APPROVED/);
    expect(r.stdout).toMatch(/cheat-pair\s+escalate\s+3\s+1\s+1\s+1\s+1/);

    const week = JSON.parse((await sys.cli(['rules', 'dry-run', '--policy', writePolicy(DRY_RUN_POLICY), '--since', 'P7D', '--json'])).stdout);
    expect(week.since).toEqual(expect.any(Number));
    expect(week.rules.map((x: any) => [x.actedOn, x.missed])).toEqual([[3, 1], [1, 2]]);

    const env = await sys.cli(['rules', 'dry-run']);
    expect(env.code).toBe(0);
    expect(env.stdout).toMatch(/the policy has no rules/);
  });

  it('refuses a bad policy or duration with one line', async () => {
    const bad = await sys.cli(['rules', 'dry-run', '--policy', writePolicy({ ...DRY_RUN_POLICY, rules: [{ ...DRY_RUN_POLICY.rules[0], minReporters: 0 }] })]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: invalid policy .*: rules\.0\.minReporters: must be at least 1$/)]);
    const since = await sys.cli(['rules', 'dry-run', '--since', 'lately']);
    expect(since.code).toBe(1);
    expect(since.stderr).toMatch(/^error: --since must be a duration/);
  });
});
