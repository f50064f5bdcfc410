import { describe, expect, it } from 'vitest';
import type { AppealRecord, AppealState, AppealTransition, NewAppeal } from '../index.js';
import type { CaseRecord, SanctionRecord, Transition } from '../index.js';
import type { Store } from '../index.js';
import { allExpiredEvidence, report } from './fixtures.contract.js';

/** Appeals (docs/appeals.md): part of the Store contract, run for every adapter, through the port only. */

function step(from: CaseRecord, state: CaseRecord['state'], decisionId: string, extra: Partial<Transition> = {}): Transition {
  const action = ({ claimed: 'claim', approved: 'approve', dismissed: 'dismiss', open: 'undo' } as const)[state];
  return {
    caseId: from.id,
    expectedVersion: from.version,
    expectedState: from.state,
    next: { state, claimedBy: state === 'claimed' ? 'mod-1' : null },
    event: { decisionId, action, moderatorId: 'mod-1', at: 5_000, result: { ok: true } },
    ...extra,
  };
}

function newAppeal(id: string, s: SanctionRecord, at = 6_000, overrides: Partial<NewAppeal> = {}): NewAppeal {
  return {
    id,
    sanctionId: s.id,
    userId: s.userId,
    caseId: s.caseId,
    category: s.category,
    sanctionModeratorId: s.moderatorId,
    automated: false,
    statement: 'I was not cheating',
    at,
    effects: [{ id: `${id}:0-sla`, kind: 'appeal.deadline', payload: { appealId: id } }],
    ...overrides,
  };
}

function move(a: AppealRecord, state: AppealState, decisionId: string, moderatorId = 'mod-2', extra: Partial<AppealTransition> = {}): AppealTransition {
  const action = ({ open: 'unclaim', claimed: 'claim', upheld: 'uphold', overturned: 'overturn' } as const)[state];
  const resolution = state === 'upheld' || state === 'overturned' ? { outcome: state, reason: `${action} because` } : undefined;
  return {
    appealId: a.id,
    expectedVersion: a.version,
    expectedState: a.state,
    next: { state, claimedBy: state === 'open' ? null : moderatorId },
    ...(resolution && { resolution }),
    event: { decisionId, action, moderatorId, reason: resolution?.reason ?? null, at: 7_000, result: { ok: true, decisionId } },
    ...extra,
  };
}

export function describeAppealsContract(store: () => Store): void {
  /** A case of `userId` reported by two reporters and approved: its sanction. */
  async function sanctioned(userId: string, approvalId: string, category: string | null = 'cheating'): Promise<SanctionRecord> {
    const [saved] = await store().saveReports([
      report(`r1-${approvalId}`, userId, 4_000, { reporterId: `a-${approvalId}` }),
      report(`r2-${approvalId}`, userId, 4_100, { reporterId: `b-${approvalId}` }),
    ]);
    const opened = (await store().getCase(saved!.caseId))!;
    await store().transitionCase(step(opened, 'approved', approvalId, { ban: 'set', sanction: { reason: 'aimbot', expiresAt: null, kind: 'ban', blocksLogin: true, category } }));
    return (await store().getSanction(approvalId))!;
  }
  const approvedCounts = async (approvalId: string) =>
    (await store().reporterStats([{ platform: 'gameplatform', id: `a-${approvalId}` }, { platform: 'gameplatform', id: `b-${approvalId}` }])).map((s) => s.approved);

  describe('appeals', () => {
    it('stores an appeal open, with its submission in its history and its effects; a repeat answers the first', async () => {
      const s = await sanctioned('ap-u1', 'ap-d1');
      const { appeal, created } = await store().createAppeal(newAppeal('ap-1', s));
      expect(created).toBe(true);
      expect(appeal).toEqual({
        id: 'ap-1',
        sanctionId: 'ap-d1',
        userId: 'ap-u1',
        caseId: s.caseId,
        category: 'cheating',
        sanctionModeratorId: 'mod-1',
        automated: false,
        statement: 'I was not cheating',
        state: 'open',
        claimedBy: null,
        version: 1,
        createdAt: 6_000,
        updatedAt: 6_000,
        decidedAt: null,
        decidedBy: null,
        decisionReason: null,
        slaBreached: false,
      });
      expect(await store().getAppeal('ap-1')).toEqual(appeal);
      expect((await store().appealHistory('ap-1')).map((e) => [e.action, e.fromState, e.toState, e.moderatorId])).toEqual([['submit', null, 'open', null]]);
      expect((await store().pendingEffectsOf('ap-1')).map((e) => e.kind)).toEqual(['appeal.deadline']);

      const again = await store().createAppeal(newAppeal('ap-1-again', s, 6_500, { statement: 'please' }));
      expect(again).toEqual({ appeal, created: false });
      expect(await store().getAppeal('ap-1-again')).toBeNull();
    });

    it('overturn lifts the sanction (cause appeal), takes back the reporters\' approval and adds appeal.resolved to the feed, together', async () => {
      const s = await sanctioned('ap-u2', 'ap-d2');
      expect(await approvedCounts('ap-d2')).toEqual([1, 1]);
      const { appeal } = await store().createAppeal(newAppeal('ap-2', s));
      const claimed = (await store().transitionAppeal(move(appeal, 'claimed', 'ap-2-claim')))!;
      expect(claimed).toMatchObject({ state: 'claimed', claimedBy: 'mod-2', version: 2 });
      const effects = [{ id: 'ap-2-overturn:0-x', kind: 'sanction.webhook', payload: {} }];
      const overturned = (await store().transitionAppeal(move(claimed, 'overturned', 'ap-2-overturn', 'mod-2', { effects })))!;
      expect(overturned).toMatchObject({ state: 'overturned', version: 3, decidedAt: 7_000, decidedBy: 'mod-2', decisionReason: 'overturn because' });

      expect(await store().getSanction('ap-d2')).toMatchObject({ state: 'lifted', liftedBy: 'mod-2', liftReason: 'overturn because', liftedAt: 7_000 });
      expect(await store().isBanned('ap-u2')).toBe(false);
      expect(await approvedCounts('ap-d2')).toEqual([0, 0]);
      const events = await store().sanctionEventsOf('ap-d2');
      expect(events.map((e) => e.type)).toEqual(['sanction.created', 'sanction.lifted', 'appeal.resolved']);
      expect(events[1]).toMatchObject({ cause: 'appeal', at: 7_000 });
      expect(events[2]).toMatchObject({ appeal: { id: 'ap-2', outcome: 'overturned', reason: 'overturn because' }, userId: 'ap-u2', kind: 'ban' });
      expect(events[0]!.cause).toBeUndefined();
      expect(events[2]!.seq).toBeGreaterThan(events[1]!.seq);
      expect((await store().pendingEffectsOf('ap-2-overturn')).map((e) => e.id)).toEqual(['ap-2-overturn:0-x']);

      expect((await store().appealHistory('ap-2')).map((e) => [e.action, e.fromState, e.toState, e.moderatorId, e.reason])).toEqual([
        ['submit', null, 'open', null, null],
        ['claim', 'open', 'claimed', 'mod-2', null],
        ['overturn', 'claimed', 'overturned', 'mod-2', 'overturn because'],
      ]);
      expect(await store().findAppealDecision('ap-2-overturn')).toMatchObject({ appealId: 'ap-2', action: 'overturn', result: { ok: true, decisionId: 'ap-2-overturn' } });
      expect(await store().findAppealDecision('nope')).toBeNull();
    });

    it('uphold keeps the sanction and the counts, and adds appeal.resolved only', async () => {
      const s = await sanctioned('ap-u3', 'ap-d3');
      const { appeal } = await store().createAppeal(newAppeal('ap-3', s));
      const upheld = (await store().transitionAppeal(move(appeal, 'upheld', 'ap-3-uphold')))!;
      expect(upheld).toMatchObject({ state: 'upheld', decidedBy: 'mod-2', decisionReason: 'uphold because' });
      expect(await store().getSanction('ap-d3')).toMatchObject({ state: 'active' });
      expect(await store().isBanned('ap-u3')).toBe(true);
      expect(await approvedCounts('ap-d3')).toEqual([1, 1]);
      const events = await store().sanctionEventsOf('ap-d3');
      expect(events.map((e) => [e.type, e.appeal?.outcome])).toEqual([
        ['sanction.created', undefined],
        ['appeal.resolved', 'upheld'],
      ]);
    });

    it('a transition is a compare-and-set: a stale version or state changes nothing', async () => {
      const s = await sanctioned('ap-u4', 'ap-d4');
      const { appeal } = await store().createAppeal(newAppeal('ap-4', s));
      expect(await store().transitionAppeal(move(appeal, 'claimed', 'ap-4-a'))).not.toBeNull();
      expect(await store().transitionAppeal(move(appeal, 'overturned', 'ap-4-b'))).toBeNull();
      expect(await store().transitionAppeal(move({ ...appeal, id: 'unknown' }, 'claimed', 'ap-4-c'))).toBeNull();
      expect(await store().getSanction('ap-d4')).toMatchObject({ state: 'active' });
      expect(await store().findAppealDecision('ap-4-b')).toBeNull();
      expect((await store().appealHistory('ap-4')).map((e) => e.action)).toEqual(['submit', 'claim']);
    });

    it('overturning an appeal whose sanction an undo already lifted takes nothing back twice', async () => {
      const s = await sanctioned('ap-u5', 'ap-d5');
      const { appeal } = await store().createAppeal(newAppeal('ap-5', s));
      const c = (await store().getCase(s.caseId!))!;
      await store().transitionCase(step(c, 'open', 'ap-d5-undo', { ban: 'lift' }));
      expect(await approvedCounts('ap-d5')).toEqual([0, 0]);
      expect(await store().transitionAppeal(move(appeal, 'overturned', 'ap-5-o'))).not.toBeNull();
      expect(await approvedCounts('ap-d5')).toEqual([0, 0]);
      expect((await store().sanctionEventsOf('ap-d5')).map((e) => e.type)).toEqual(['sanction.created', 'sanction.lifted', 'appeal.resolved']);
    });

    it('evidence of a case is kept while an appeal of its sanction waits, even once the sanction ended', async () => {
      const s = await sanctioned('ap-ev', 'ap-dev');
      await store().recordEvidence({
        reportId: 'r1-ap-dev',
        index: 0,
        caseId: s.caseId!,
        state: 'captured',
        failure: null,
        detail: null,
        sha256: 'a'.repeat(64),
        size: 3,
        contentType: 'image/png',
        capturedAt: 4_500,
        at: 4_500,
      });
      const { appeal } = await store().createAppeal(newAppeal('ap-ev-1', s));
      await store().liftSanction({ sanctionId: s.id, at: 6_500, moderatorId: 'mod-1', sourceId: 'ap-ev-lift', effects: [] });
      const expired = async () => (await allExpiredEvidence(store(), Date.now() + 60_000)).filter((i) => i.reportId === 'r1-ap-dev');
      expect(await expired()).toEqual([]);
      await store().transitionAppeal(move(appeal, 'upheld', 'ap-ev-up'));
      expect((await expired()).map((i) => i.index)).toEqual([0]);
    });

    it('lists appeals oldest first by state, category, player and case, a page after a cursor', async () => {
      const a = await sanctioned('ap-l1', 'ap-dl1', 'cheating');
      const b = await sanctioned('ap-l2', 'ap-dl2', 'spam');
      const c = await sanctioned('ap-l1', 'ap-dl3', 'cheating');
      await store().createAppeal(newAppeal('ap-l-b', b, 8_000));
      await store().createAppeal(newAppeal('ap-l-a', a, 8_000));
      const { appeal: third } = await store().createAppeal(newAppeal('ap-l-c', c, 9_000));
      await store().transitionAppeal(move(third, 'claimed', 'ap-l-c-claim'));
      const ids = async (q: Partial<Parameters<Store['listAppeals']>[0]>) =>
        (await store().listAppeals({ states: ['open', 'claimed'], limit: 10, ...q })).map((x) => x.id).filter((id) => id.startsWith('ap-l-'));
      expect(await ids({})).toEqual(['ap-l-a', 'ap-l-b', 'ap-l-c']);
      expect(await ids({ states: ['open'] })).toEqual(['ap-l-a', 'ap-l-b']);
      expect(await ids({ states: ['claimed'] })).toEqual(['ap-l-c']);
      expect(await ids({ states: ['upheld'] })).toEqual([]);
      expect(await ids({ category: 'cheating' })).toEqual(['ap-l-a', 'ap-l-c']);
      expect(await ids({ userId: 'ap-l1' })).toEqual(['ap-l-a', 'ap-l-c']);
      expect(await ids({ caseId: b.caseId! })).toEqual(['ap-l-b']);
      expect(await ids({ sanctionId: 'ap-dl3' })).toEqual(['ap-l-c']);
      expect(await ids({ userId: 'ap-l1', after: { createdAt: 8_000, id: 'ap-l-a' } })).toEqual(['ap-l-c']);
      expect(await ids({ userId: 'ap-l2', after: { createdAt: 8_000, id: 'ap-l-b' } })).toEqual([]);
      expect((await store().listAppeals({ states: ['open', 'claimed'], userId: 'ap-l1', limit: 1 })).map((x) => x.id)).toEqual(['ap-l-a']);
      expect(await store().listAppeals({ states: ['open'], userId: 'ap-l1', limit: 0 })).toEqual([]);
    });

    it('flags an SLA breach once, and lists appeals submitted or decided since a time', async () => {
      const s1 = await sanctioned('ap-s1', 'ap-ds1');
      const s2 = await sanctioned('ap-s2', 'ap-ds2');
      const { appeal: early } = await store().createAppeal(newAppeal('ap-s-early', s1, 1_000));
      await store().createAppeal(newAppeal('ap-s-late', s2, 20_000));
      expect(await store().recordAppealSlaBreach('ap-s-early')).toBe(true);
      expect(await store().recordAppealSlaBreach('ap-s-early')).toBe(false);
      expect(await store().recordAppealSlaBreach('unknown')).toBe(false);
      expect((await store().getAppeal('ap-s-early'))!.slaBreached).toBe(true);
      const since = async () => (await store().appealsSince(10_000)).map((x) => x.id).filter((id) => id.startsWith('ap-s-'));
      expect(await since()).toEqual(['ap-s-late']);
      // Decided after the time (at 7_000 here: the time of `move`) counts from its decision.
      await store().transitionAppeal({ ...move(early, 'upheld', 'ap-s-early-up'), event: { ...move(early, 'upheld', 'ap-s-early-up').event, at: 30_000 } });
      expect(await since()).toEqual(['ap-s-early', 'ap-s-late']);
    });

    it('the transparency figures count appeals filed in the period and those decided in it each way, with the median time to decision', async () => {
      const figures = async (from: number, to: number) => (await store().transparencyFigures({ from, to, categoryQuestionId: 'category', categories: ['cheating'], defaultCategory: 'other' })).appeals;
      const T = 900_000;
      const [a, b] = [await sanctioned('ap-t1', 'ap-dt1'), await sanctioned('ap-t2', 'ap-dt2'), await sanctioned('ap-t3', 'ap-dt3')];
      const { appeal: first } = await store().createAppeal(newAppeal('ap-t-1', a!, T));
      const { appeal: second } = await store().createAppeal(newAppeal('ap-t-2', b!, T + 100));
      await store().createAppeal(newAppeal('ap-t-3', (await store().getSanction('ap-dt3'))!, T + 200));
      expect(await figures(T, T + 10_000)).toEqual({ received: 3, upheld: 0, overturned: 0, medianTimeToDecisionMs: null });
      const decide = (x: AppealRecord, state: 'upheld' | 'overturned', at: number) => {
        const t = move(x, state, `${x.id}-${state}`);
        return store().transitionAppeal({ ...t, event: { ...t.event, at } });
      };
      await decide(first, 'upheld', T + 1_000);
      await decide(second, 'overturned', T + 3_100);
      expect(await figures(T, T + 10_000)).toEqual({ received: 3, upheld: 1, overturned: 1, medianTimeToDecisionMs: 2_000 });
      // Filed before the period, decided in it: counted as decided, not as received.
      expect(await figures(T + 150, T + 10_000)).toEqual({ received: 1, upheld: 1, overturned: 1, medianTimeToDecisionMs: 2_000 });
      expect(await figures(T + 2_000, T + 10_000)).toEqual({ received: 0, upheld: 0, overturned: 1, medianTimeToDecisionMs: 3_000 });
    });
  });
}

/** Two handles on one store (two processes): racing submissions for one sanction store one appeal. */
export function describeSharedAppealsContract(openPair: () => Promise<[Store, Store]>): void {
  it('two submissions of an appeal of the same sanction at once store one appeal, answered to both', async () => {
    const [a, b] = await openPair();
    try {
      for (let round = 0; round < 10; round++) {
        const [saved] = await a.saveReports([report(`ap-race-${round}`, `ap-race-u${round}`, 1_000)]);
        const c = (await a.getCase(saved!.caseId))!;
        await a.transitionCase(step(c, 'approved', `ap-race-d${round}`, { ban: 'set' }));
        const s = (await a.getSanction(`ap-race-d${round}`))!;
        const [x, y] = await Promise.all([a.createAppeal(newAppeal(`ap-race-a${round}`, s)), b.createAppeal(newAppeal(`ap-race-b${round}`, s))]);
        expect([x.created, y.created].sort()).toEqual([false, true]);
        expect(x.appeal.id).toBe(y.appeal.id);
        expect(await a.listAppeals({ states: ['open'], sanctionId: s.id, limit: 10 })).toHaveLength(1);
      }
    } finally {
      await a.close();
      await b.close();
    }
  });
}
