import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CaseState, NewReport, Store } from '@rm/storage';
import { openSqliteStore } from '@rm/storage-sqlite';
import { DEFAULT_POLICY, replayRules, type TriagePolicy } from './index.js';

// Replays against a real SQLite store in a temporary folder, with reports and decisions at chosen times.
const HOUR = 3_600_000;
const policy: TriagePolicy = {
  ...DEFAULT_POLICY,
  brigade: { window: 'PT1M', minReporters: 3, suspectShare: 0.9, lowCredibility: 0.3 },
  rules: [{ id: 'pair', category: 'cheating', minReporters: 2, minCredibility: 0.4, window: 'PT1H', action: { type: 'escalate', boost: 1 } }],
};

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rm-replay-'));
  store = openSqliteStore(join(dir, 'reports.db'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
const report = (userId: string, reporterId: string, at: number, category = 'cheating'): NewReport => ({
  id: `r${n++}`,
  userId,
  reporterId,
  reporterPlatform: 'gameplatform',
  reportType: null,
  answers: [{ questionId: 'category', answer: category }],
  evidence: [{ url: 'https://clips.example/1', type: 'url' }],
  receivedAt: at,
  user: { name: userId, displayName: userId, avatar: null },
});

async function decide(caseId: string, to: CaseState, at: number): Promise<void> {
  const c = (await store.getCase(caseId))!;
  const action = to === 'approved' ? 'approve' : to === 'dismissed' ? 'dismiss' : 'undo';
  expect(await store.transitionCase({ caseId, expectedVersion: c.version, expectedState: c.state, next: { state: to, claimedBy: null }, event: { decisionId: `d${n++}`, action, moderatorId: 'm', at, result: null } })).not.toBeNull();
}

const caseOf = async (reports: NewReport[]) => (await store.saveReports(reports))[0]!.caseId;

describe('replayRules', () => {
  it('acts in time order: reports after --since only, across pages, and changes nothing stored', async () => {
    const early = await caseOf([report('u1', 'a', 1 * HOUR), report('u1', 'b', 1 * HOUR + 1)]);
    await decide(early, 'approved', 2 * HOUR);
    const late = await caseOf([report('u2', 'c', 10 * HOUR), report('u2', 'd', 10 * HOUR + 1)]);
    await decide(late, 'dismissed', 11 * HOUR);
    const missed = await caseOf([report('u3', 'e', 12 * HOUR)]);
    await decide(missed, 'approved', 13 * HOUR);
    const before = await store.listReportsByUser('u1', { offset: 0, limit: 10 });

    const all = await replayRules(store, policy);
    expect(all.rules[0]).toMatchObject({ actedOn: 2, approved: 1, dismissed: 1, undecided: 0, missed: 1, actedOnCases: [early, late].sort(), missedCases: [missed] });
    const since = await replayRules(store, policy, { since: 5 * HOUR });
    expect(since.rules[0]).toMatchObject({ actedOn: 1, dismissed: 1, actedOnCases: [late], missedCases: [missed] });
    expect(since.reports).toBe(5);
    expect(await store.listReportsByUser('u1', { offset: 0, limit: 10 })).toEqual(before);
    expect((await store.getCase(early))!.state).toBe('approved');
    expect(await store.getCaseTriage(early)).toBeNull();
  });

  it('replays credibility from the decisions as they were taken, and an undo reverts it', async () => {
    const trusted: TriagePolicy = { ...policy, rules: [{ ...policy.rules[0]!, id: 'trusted', minReporters: 1, minCredibility: 0.6 }] };
    const first = await caseOf([report('u1', 'a', 1 * HOUR, 'spam')]);
    // Before a's approval: neutral, not acted on.
    await caseOf([report('u2', 'a', 2 * HOUR)]);
    await decide(first, 'approved', 3 * HOUR);
    const after = await caseOf([report('u3', 'a', 4 * HOUR)]);
    await decide(first, 'open', 5 * HOUR);
    await caseOf([report('u4', 'a', 6 * HOUR)]);
    const result = await replayRules(store, trusted);
    expect(result.rules[0]!.actedOnCases).toEqual([after]);
  });

  it('skips a suspected brigade', async () => {
    const burst = await caseOf(['x', 'y', 'z'].map((r, i) => report('u1', r, HOUR + i)));
    const ruleFirst: TriagePolicy = { ...policy, rules: [{ ...policy.rules[0]!, minReporters: 3 }] };
    expect((await replayRules(store, ruleFirst)).rules[0]!.actedOnCases).toEqual([]);
    // The same reports are no brigade under a higher threshold, and then the rule acts.
    const noBrigade: TriagePolicy = { ...ruleFirst, brigade: { ...ruleFirst.brigade, minReporters: 10 } };
    expect((await replayRules(store, noBrigade)).rules[0]!.actedOnCases).toEqual([burst]);
  });

  it('reads every page of a large history, reporting progress', async () => {
    const reports = Array.from({ length: 2_345 }, (_, i) => report(`u${i % 50}`, `r${i}`, HOUR + i * 1_000, 'spam'));
    await store.saveReports(reports);
    const seen: number[] = [];
    const result = await replayRules(store, policy, { progress: (phase, done) => phase === 'reading' && seen.push(done) });
    expect(result).toMatchObject({ reports: 2_345, cases: 50 });
    expect(seen).toEqual([1_000, 2_000, 2_345]);
  });
});
