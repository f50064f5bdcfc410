import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { System, type Key } from './harness.js';
import { categorized, TEST_POLICY, writePolicy } from './triage-policy.js';

// A sanction rule: two reporters (neutral credibility 0.5 is above 0.4) of cheating within an hour
// ban the player for a day, as an approval by the system moderator.
const POLICY = {
  ...TEST_POLICY,
  rules: [{ id: 'cheat-ban', category: 'cheating', minReporters: 2, minCredibility: 0.4, window: 'PT1H', action: { type: 'sanction', duration: 'P1D' } }],
  systemModeratorId: 'triage-bot',
};

let sys: System;
let submitter: Key;
let handler: Key;
let viewer: Key;

beforeAll(async () => {
  sys = await System.start({ env: { MAX_REPORTS_PER_DAY: '1000', TRIAGE_POLICY: writePolicy(POLICY) } });
  [submitter, handler, viewer] = await Promise.all([
    sys.createKey(['--permission', 'reports.submit_report']),
    sys.createKey(['--permission', 'reports.handle_reports']),
    sys.createKey(['--permission', 'reports.view_reports', '--permission', 'sanctions.read']),
  ]);
  await sys.addModerator('triage-bot', 'Triage bot');
  await sys.addModerator('m1', 'alice');
});
afterAll(() => sys?.stop());

describe('automatic rules: sanction', () => {
  it('bans the player for the rule’s duration as a decision of the system moderator, visible and undoable like any decision', async () => {
    const userId = '9100';
    await sys.addUser(userId);
    const ids: string[] = [];
    for (const reporter of ['s1', 's2']) {
      const res = await sys.post('/v1/reports/new', submitter.auth, categorized(userId, reporter, 'cheating'));
      expect(res.status).toBe(200);
      ids.push(res.body.id);
    }
    let c: any;
    await sys.waitFor(
      async () => {
        c = (await sys.get('/v1/cases?state=approved&limit=100', viewer.auth)).body.cases.find((x: any) => x.userId === userId);
        return c !== undefined;
      },
      20_000,
      'the rule’s approval',
    );
    const detail = (await sys.get(`/v1/cases/${c.caseId}`, viewer.auth)).body.case;
    expect(detail.decisions).toEqual([
      { decisionId: `rule-${c.caseId}-cheat-ban`, action: 'approve', moderator: { id: 'triage-bot', username: 'Triage bot' }, fromState: 'open', toState: 'approved', at: expect.any(Number) },
    ]);
    const [sanction] = detail.sanctions;
    expect(sanction).toMatchObject({ kind: 'ban', state: 'active', reason: 'automatic triage rule cheat-ban', moderator: { id: 'triage-bot', username: 'Triage bot' } });
    expect(sanction.expiresAt - sanction.createdAt).toBe(86_400_000);
    const status = await sys.get(`/v1/sanctions/${userId}`, viewer.auth);
    expect(status.body).toMatchObject({ banned: true, sanctions: [{ id: sanction.id, expiresAt: sanction.expiresAt }] });

    // A moderator undoes it like any decision; the rule, having acted on this case, does not ban again.
    expect((await sys.post(`/v1/reports/${ids[0]}/undo`, handler.auth, { moderator: { id: 'm1' } })).status).toBe(200);
    const after = (await sys.get(`/v1/cases/${c.caseId}`, viewer.auth)).body.case;
    expect(after.state).toBe('open');
    expect(after.sanctions[0]).toMatchObject({ id: sanction.id, state: 'lifted' });
    // A third report is triaged after the reopening: the case stays open.
    expect((await sys.post('/v1/reports/new', submitter.auth, categorized(userId, 's3', 'cheating'))).status).toBe(200);
    await sys.waitFor(async () => (await sys.get('/v1/cases?limit=100', viewer.auth)).body.cases.some((x: any) => x.caseId === c.caseId && x.reportCount === 3), 15_000, 'the reopened case triaged');
    const listed = (await sys.get(`/v1/cases/${c.caseId}`, viewer.auth)).body.case;
    expect(listed.state).toBe('open');
    expect(listed.decisions.map((d: any) => d.action)).toEqual(['approve', 'undo']);
  });
});
