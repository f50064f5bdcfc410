import type { AppealRecord } from '@rm/storage';
import { describe, expect, it } from 'vitest';
import { planAppeal, type AppealCommand } from './appeal-state-machine.js';

const appeal = (over: Partial<AppealRecord> = {}): AppealRecord => ({
  id: 'a1',
  sanctionId: 's1',
  userId: 'u1',
  caseId: 'c1',
  category: 'cheating',
  sanctionModeratorId: 'decider',
  automated: false,
  statement: 'unfair',
  state: 'open',
  claimedBy: null,
  version: 1,
  createdAt: 0,
  updatedAt: 0,
  decidedAt: null,
  decidedBy: null,
  decisionReason: null,
  slaBreached: false,
  ...over,
});
const cmd = (action: AppealCommand['action'], moderatorId = 'm2', extra: Partial<AppealCommand> = {}): AppealCommand => ({ action, moderatorId, systemModeratorId: 'bot', sanctionBoundModeratorId: null, ...extra });

describe('planAppeal', () => {
  it('open → claimed → upheld or overturned; an unclaimed appeal may be decided at once', () => {
    expect(planAppeal(appeal(), cmd('appeal.claim'))).toEqual({ ok: true, next: { state: 'claimed', claimedBy: 'm2' } });
    const claimed = appeal({ state: 'claimed', claimedBy: 'm2' });
    expect(planAppeal(claimed, cmd('appeal.uphold'))).toEqual({ ok: true, next: { state: 'upheld', claimedBy: 'm2' }, outcome: 'upheld' });
    expect(planAppeal(claimed, cmd('appeal.overturn'))).toEqual({ ok: true, next: { state: 'overturned', claimedBy: 'm2' }, outcome: 'overturned' });
    expect(planAppeal(claimed, cmd('appeal.unclaim'))).toEqual({ ok: true, next: { state: 'open', claimedBy: null } });
    expect(planAppeal(appeal(), cmd('appeal.overturn', 'm3'))).toMatchObject({ ok: true, outcome: 'overturned' });
  });

  it("refuses the sanction's decider and the system moderator (403), whatever the state", () => {
    for (const action of ['appeal.claim', 'appeal.uphold', 'appeal.overturn'] as const) {
      expect(planAppeal(appeal(), cmd(action, 'decider'))).toMatchObject({ ok: false, code: 'FORBIDDEN', message: expect.stringMatching(/decider decided the sanction/) });
      expect(planAppeal(appeal({ state: 'upheld' }), cmd(action, 'bot'))).toMatchObject({ ok: false, code: 'FORBIDDEN', message: expect.stringMatching(/decided by a person/) });
    }
    // A trusted system's sanction of a key bound to m1: m1 decided it as much as the key did.
    const byBoundKey = appeal({ sanctionModeratorId: 'rk_key' });
    expect(planAppeal(byBoundKey, cmd('appeal.overturn', 'm1', { sanctionBoundModeratorId: 'm1' }))).toMatchObject({ ok: false, code: 'FORBIDDEN', message: expect.stringMatching(/m1 decided the sanction/) });
    expect(planAppeal(byBoundKey, cmd('appeal.overturn', 'm2', { sanctionBoundModeratorId: 'm1' }))).toMatchObject({ ok: true });
    // An automatic sanction is recorded as the system moderator: a person decides its appeal.
    expect(planAppeal(appeal({ sanctionModeratorId: 'bot', automated: true }), cmd('appeal.overturn'))).toMatchObject({ ok: true });
  });

  it("refuses someone else's claim (naming the claimer), decided appeals and claims that do not exist", () => {
    const theirs = appeal({ state: 'claimed', claimedBy: 'm3' });
    expect(planAppeal(theirs, cmd('appeal.claim'))).toMatchObject({ ok: false, code: 'CLAIMED_BY_OTHER', claimer: 'm3' });
    expect(planAppeal(theirs, cmd('appeal.overturn'))).toMatchObject({ ok: false, code: 'CLAIMED_BY_OTHER', claimer: 'm3' });
    expect(planAppeal(theirs, cmd('appeal.unclaim'))).toMatchObject({ ok: false, code: 'CLAIMED_BY_OTHER' });
    expect(planAppeal(theirs, cmd('appeal.unclaim', 'm2', { bypassClaimCheck: true }))).toMatchObject({ ok: true });
    expect(planAppeal(appeal({ state: 'claimed', claimedBy: 'm2' }), cmd('appeal.claim'))).toMatchObject({ ok: false, code: 'INVALID_STATE' });
    expect(planAppeal(appeal(), cmd('appeal.unclaim'))).toMatchObject({ ok: false, code: 'INVALID_STATE' });
    for (const state of ['upheld', 'overturned'] as const) {
      for (const action of ['appeal.claim', 'appeal.unclaim', 'appeal.uphold', 'appeal.overturn'] as const) {
        expect(planAppeal(appeal({ state, claimedBy: 'm2' }), cmd(action))).toMatchObject({ ok: false, code: 'INVALID_STATE' });
      }
    }
  });
});
