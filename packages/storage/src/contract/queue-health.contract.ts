import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CaseRecord, CaseState } from '../index.js';
import type { Store } from '../index.js';
import { report } from './fixtures.contract.js';

/**
 * The queue-health part of the store contract (SLA breaches, open cases, timelines, reports by
 * time), run by describeStoreContract against every adapter.
 */

export function describeQueueHealthContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Store contract, queue health: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    async function openCase(reportId: string, userId: string, at: number): Promise<CaseRecord> {
      const [saved] = await store.saveReports([report(reportId, userId, at)]);
      return (await store.getCase(saved!.caseId))!;
    }

    let seq = 0;
    async function decide(c: CaseRecord, action: 'claim' | 'unclaim' | 'approve' | 'dismiss' | 'undo', moderatorId: string, at: number): Promise<CaseRecord> {
      const to: Record<typeof action, CaseState> = { claim: 'claimed', unclaim: 'open', approve: 'approved', dismiss: 'dismissed', undo: 'open' };
      const next = to[action];
      const updated = await store.transitionCase({
        caseId: c.id,
        expectedVersion: c.version,
        expectedState: c.state,
        next: { state: next, claimedBy: next === 'open' ? null : moderatorId },
        event: { decisionId: `qh-${++seq}`, action, moderatorId, at, result: { ok: true } },
      });
      expect(updated).not.toBeNull();
      return updated!;
    }

    it('records an SLA breach once per opening, flags the case, and lists breaches from a time on', async () => {
      const c = await openCase('r1', 'u1', 1_000);
      const breach = { caseId: c.id, openingId: 'opened', category: 'uncategorized', at: 5_000 };
      expect(await store.recordSlaBreach(breach)).toBe(true);
      expect(await store.recordSlaBreach({ ...breach, at: 6_000 })).toBe(false);
      expect(await store.recordSlaBreach({ ...breach, openingId: 'undo-1', at: 9_000 })).toBe(true);
      expect(await store.slaBreachesSince(0)).toEqual([breach, { ...breach, openingId: 'undo-1', at: 9_000 }]);
      expect(await store.slaBreachesSince(5_001)).toEqual([{ ...breach, openingId: 'undo-1', at: 9_000 }]);
      expect((await store.openCases('', 10)).map((o) => [o.caseId, o.slaBreached])).toEqual([[c.id, true]]);
    });

    it('of concurrent records of one breach, exactly one says it recorded it', async () => {
      const c = await openCase('r1', 'u1', 1_000);
      const results = await Promise.all(Array.from({ length: 5 }, () => store.recordSlaBreach({ caseId: c.id, openingId: 'opened', category: 'x', at: 2_000 })));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await store.slaBreachesSince(0)).toHaveLength(1);
    });

    it('records no breach of an unknown case', async () => {
      expect(await store.recordSlaBreach({ caseId: 'no-such-case', openingId: 'opened', category: 'x', at: 2_000 })).toBe(false);
      expect(await store.slaBreachesSince(0)).toEqual([]);
    });

    it('lists open and claimed cases by case id, without decided ones', async () => {
      const a = await openCase('r1', 'u1', 1_000);
      const b = await openCase('r2', 'u2', 2_000);
      const d = await openCase('r3', 'u3', 500);
      await decide(b, 'claim', 'mod-1', 3_000);
      await decide(d, 'approve', 'mod-1', 3_000);
      expect(await store.openCases('', 10)).toEqual(
        [
          { caseId: a.id, userId: 'u1', state: 'open', claimedBy: null, createdAt: 1_000, slaBreached: false },
          { caseId: b.id, userId: 'u2', state: 'claimed', claimedBy: 'mod-1', createdAt: 2_000, slaBreached: false },
        ].sort((x, y) => (x.caseId < y.caseId ? -1 : 1)),
      );
    });

    it('counts reports received from a time on', async () => {
      await store.saveReports([report('r1', 'u1', 1_000), report('r2', 'u1', 2_000), report('r3', 'u2', 3_000)]);
      expect(await store.countReportsSince(0)).toBe(3);
      expect(await store.countReportsSince(2_000)).toBe(2);
      expect(await store.countReportsSince(3_001)).toBe(0);
    });

    it('gives the whole history of every case with a decision from a time on', async () => {
      const a = await openCase('r1', 'u1', 1_000);
      const b = await openCase('r2', 'u2', 1_500);
      await openCase('r3', 'u3', 1_700);
      let ca = await decide(a, 'claim', 'mod-1', 2_000);
      ca = await decide(ca, 'approve', 'mod-1', 3_000);
      await decide(ca, 'undo', 'mod-2', 8_000);
      await decide(b, 'claim', 'mod-2', 2_500);
      expect(await store.caseTimelinesSince(5_000)).toEqual([
        {
          caseId: a.id,
          userId: 'u1',
          createdAt: 1_000,
          events: [
            { decisionId: expect.any(String), action: 'claim', moderatorId: 'mod-1', at: 2_000 },
            { decisionId: expect.any(String), action: 'approve', moderatorId: 'mod-1', at: 3_000 },
            { decisionId: expect.any(String), action: 'undo', moderatorId: 'mod-2', at: 8_000 },
          ],
        },
      ]);
      const all = await store.caseTimelinesSince(0);
      // By case id.
      expect(all.map((t) => t.caseId)).toEqual([a.id, b.id].sort());
      expect(await store.caseTimelinesSince(8_001)).toEqual([]);
    });
  });
}
