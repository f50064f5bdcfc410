import type { AppealRecord, CaseTimeline, OpenCaseSummary } from '@rm/storage';
import { describe, expect, it } from 'vitest';
import { statsFigures, type StatsInput } from './stats-figures.js';

const ev = (action: CaseTimeline['events'][number]['action'], moderatorId: string, at: number) => ({ decisionId: `${action}-${at}`, action, moderatorId, at });
const zero = { claim: 0, unclaim: 0, expire: 0, approve: 0, dismiss: 0, undo: 0 };
const noAppeals = { received: 0, upheld: 0, overturned: 0, overturnRate: null };

const base = (over: Partial<StatsInput>): StatsInput => ({
  window: 'PT1H',
  since: 1_000,
  until: 100_000,
  openCases: [],
  reportsReceived: 0,
  timelines: [],
  breaches: [],
  appeals: [],
  categoryOf: () => 'uncategorized',
  ...over,
});

describe('statsFigures', () => {
  it('times claims from the last moment a case was open and unclaimed, decisions from its opening; an undo overturns', () => {
    const timelines: CaseTimeline[] = [
      // Claimed after 1 s, the claim expires (system), re-claimed 4 s after that by m2, approved, undone by m1.
      { caseId: 'a', userId: 'u1', createdAt: 10_000, events: [ev('claim', 'm1', 11_000), ev('unclaim', 'system', 20_000), ev('claim', 'm2', 24_000), ev('approve', 'm2', 30_000), ev('undo', 'm1', 40_000)] },
      // Dismissed unclaimed after 6 s, not undone.
      { caseId: 'b', userId: 'u2', createdAt: 50_000, events: [ev('dismiss', 'm1', 56_000)] },
    ];
    const s = statsFigures(base({ timelines, reportsReceived: 3 }));
    expect(s).toMatchObject({
      reportsReceived: 3,
      decisions: { claim: 2, unclaim: 0, expire: 1, approve: 1, dismiss: 1, undo: 1 },
      medianTimeToClaimMs: 2_500, // 1 s and 4 s
      medianTimeToDecisionMs: 13_000, // 20 s (a) and 6 s (b)
      overturnRate: 0.5,
    });
    const [m1, m2] = s.byModerator;
    // The expiry counts against m1, whose claim it was.
    expect(m1).toMatchObject({ moderatorId: 'm1', decisions: { ...zero, claim: 1, expire: 1, dismiss: 1, undo: 1 }, medianTimeToClaimMs: 1_000, overturnRate: 0 });
    expect(m2).toMatchObject({ moderatorId: 'm2', decisions: { ...zero, claim: 1, approve: 1 }, medianTimeToClaimMs: 4_000, medianTimeToDecisionMs: 20_000, overturnRate: 1 });
    expect(s.byModerator).toHaveLength(2);
  });

  it('counts only decisions in the window, but times them from before it', () => {
    const timelines: CaseTimeline[] = [{ caseId: 'a', userId: 'u1', createdAt: 0, events: [ev('claim', 'm1', 500), ev('approve', 'm1', 2_000)] }];
    const s = statsFigures(base({ timelines }));
    expect(s.decisions).toEqual({ ...zero, approve: 1 });
    expect(s.medianTimeToDecisionMs).toBe(2_000);
    expect(s.medianTimeToClaimMs).toBeNull();
  });

  it('the queue now: open, claimed, oldest age, flagged cases, per category and per holder', () => {
    const openCases: OpenCaseSummary[] = [
      { caseId: 'a', userId: 'u1', state: 'open', claimedBy: null, createdAt: 40_000, slaBreached: true },
      { caseId: 'b', userId: 'u2', state: 'claimed', claimedBy: 'm3', createdAt: 60_000, slaBreached: false },
    ];
    const breaches = [{ caseId: 'a', openingId: 'opened', category: 'threat', at: 50_000 }];
    const s = statsFigures(base({ openCases, breaches, categoryOf: (c) => (c.caseId === 'a' ? 'threat' : 'cheating') }));
    expect(s).toMatchObject({ open: 1, claimed: 1, oldestOpenAgeMs: 60_000, slaBreaches: 1, openSlaBreached: 1, overturnRate: null });
    expect(s.byModerator).toEqual([{ moderatorId: 'm3', claimed: 1, decisions: zero, medianTimeToClaimMs: null, medianTimeToDecisionMs: null, overturnRate: null, appeals: noAppeals }]);
    expect(s.byCategory.map((c) => [c.category, c.open, c.claimed, c.oldestOpenAgeMs, c.slaBreaches, c.openSlaBreached])).toEqual([
      ['cheating', 0, 1, 40_000, 0, 0],
      ['threat', 1, 0, 60_000, 1, 1],
    ]);
  });

  it('an empty store answers zeros and nulls', () => {
    expect(statsFigures(base({}))).toEqual({
      success: true,
      window: 'PT1H',
      since: 1_000,
      until: 100_000,
      open: 0,
      claimed: 0,
      oldestOpenAgeMs: null,
      slaBreaches: 0,
      openSlaBreached: 0,
      reportsReceived: 0,
      decisions: zero,
      medianTimeToClaimMs: null,
      medianTimeToDecisionMs: null,
      overturnRate: null,
      appeals: noAppeals,
      byModerator: [],
      byCategory: [],
    });
  });

  it('appeals: received when submitted in the window, upheld or overturned when decided in it; per moderator whose sanction it was, per category', () => {
    const appeal = (id: string, over: Partial<AppealRecord>): AppealRecord => ({
      id,
      sanctionId: `s-${id}`,
      userId: 'u1',
      caseId: null,
      category: 'cheating',
      sanctionModeratorId: 'm1',
      automated: false,
      statement: 'unfair',
      state: 'open',
      claimedBy: null,
      version: 1,
      createdAt: 5_000,
      updatedAt: 5_000,
      decidedAt: null,
      decidedBy: null,
      decisionReason: null,
      slaBreached: false,
      ...over,
    });
    const appeals = [
      appeal('a', { state: 'overturned', decidedAt: 6_000, decidedBy: 'm2' }),
      appeal('b', { state: 'upheld', decidedAt: 7_000, decidedBy: 'm2', sanctionModeratorId: 'm3', category: 'spam' }),
      // Submitted before the window, overturned in it.
      appeal('c', { createdAt: 500, state: 'overturned', decidedAt: 8_000, decidedBy: 'm2' }),
      appeal('d', {}),
    ];
    const s = statsFigures(base({ appeals }));
    expect(s.appeals).toEqual({ received: 3, upheld: 1, overturned: 2, overturnRate: 2 / 3 });
    expect(s.byModerator.map((m) => [m.moderatorId, m.appeals])).toEqual([
      ['m1', { received: 2, upheld: 0, overturned: 2, overturnRate: 1 }],
      ['m3', { received: 1, upheld: 1, overturned: 0, overturnRate: 0 }],
    ]);
    expect(s.byCategory.map((c) => [c.category, c.appeals.overturned, c.appeals.upheld])).toEqual([
      ['cheating', 2, 0],
      ['spam', 0, 1],
    ]);
  });
});
