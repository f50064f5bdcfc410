import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CaseRecord, CaseState, NewReport, ReportOutcome, ReporterRecord, Transition } from '../index.js';
import type { Store } from '../index.js';
import { report as baseReport } from './fixtures.contract.js';

/**
 * Reporter outcomes (docs/reporter-outcomes.md): part of the Store contract, run for every adapter
 * by describeStoreContract, and with two handles on one store by describeSharedStoreContract.
 */

let seq = 0;
const ACTION: Record<CaseState, Transition['event']['action']> = { claimed: 'claim', approved: 'approve', dismissed: 'dismiss', open: 'undo' };
const move = (from: CaseRecord, state: CaseState, at: number): Transition => ({
  caseId: from.id,
  expectedVersion: from.version,
  expectedState: from.state,
  next: { state, claimedBy: state === 'claimed' ? 'mod-1' : null },
  ...(state === 'approved' ? { ban: 'set' as const } : from.state === 'approved' && state === 'open' ? { ban: 'lift' as const } : {}),
  event: { decisionId: `outcome-decision-${process.pid}-${++seq}`, action: ACTION[state], moderatorId: 'mod-1', at, result: { ok: true } },
});

const report = (id: string, userId: string, receivedAt: number, reporterId: string, platform = 'gameplatform'): NewReport =>
  baseReport(id, userId, receivedAt, { reporterId, reporterPlatform: platform });
const gamer = (id: string): ReporterRecord => ({ platform: 'gameplatform', id });
const brief = (outcomes: ReportOutcome[]) => outcomes.map((o) => [o.reportId, o.actioned, o.reopened, o.at]);

/** Every outcome of the reporter, page by page. */
async function allOutcomes(store: Store, reporter: ReporterRecord, pageSize = 1_000): Promise<ReportOutcome[]> {
  const all: ReportOutcome[] = [];
  for (let after = 0, pages = 0; pages < 10_000; pages++) {
    const page = await store.reporterOutcomes(reporter, after, pageSize);
    all.push(...page);
    if (page.length < pageSize) return all;
    after = page.at(-1)!.seq;
  }
  throw new Error('the outcomes did not end');
}

export function describeReporterOutcomesContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Store contract (reporter outcomes): ${name}`, { timeout: 60_000 }, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    const caseOf = async (reports: NewReport[]) => (await store.getCase((await store.saveReports(reports))[0]!.caseId))!;
    const decide = async (c: CaseRecord, state: CaseState, at = 5_000) => (await store.transitionCase(move(c, state, at)))!;

    it('lists nothing before a decision, and nothing for a claim', async () => {
      const c = await caseOf([report('r1', 'u1', 1_000, 'alice')]);
      expect(await store.reporterOutcomes(gamer('alice'), 0, 10)).toEqual([]);
      await decide(c, 'claimed');
      expect(await store.reporterOutcomes(gamer('alice'), 0, 10)).toEqual([]);
    });

    it('an approval gives each report of the case its outcome for its own reporter; a dismissal too, not actioned', async () => {
      const approved = await caseOf([report('a1', 'u1', 1_000, 'alice'), report('a2', 'u1', 1_001, 'bob'), report('a3', 'u1', 1_002, 'alice')]);
      const dismissed = await caseOf([report('d1', 'u2', 1_003, 'alice')]);
      await decide(approved, 'approved', 6_000);
      await decide(dismissed, 'dismissed', 7_000);
      const alice = await store.reporterOutcomes(gamer('alice'), 0, 10);
      expect(brief(alice)).toEqual([
        ['a1', true, false, 6_000],
        ['a3', true, false, 6_000],
        ['d1', false, false, 7_000],
      ]);
      expect(alice.map((o) => o.caseId)).toEqual([approved.id, approved.id, dismissed.id]);
      expect(brief(await store.reporterOutcomes(gamer('bob'), 0, 10))).toEqual([['a2', true, false, 6_000]]);
      // seq strictly increases along the list.
      for (let i = 1; i < alice.length; i++) expect(alice[i]!.seq).toBeGreaterThan(alice[i - 1]!.seq);
    });

    it('keeps the same id on two platforms apart, and an id with any characters', async () => {
      const odd = 'a/b?c=d&e#f %2F ü \u0000';
      const c = await caseOf([report('p1', 'u1', 1_000, 'same'), report('p2', 'u1', 1_001, 'same', 'chatplatform'), report('p3', 'u1', 1_002, odd)]);
      await decide(c, 'approved');
      expect((await store.reporterOutcomes(gamer('same'), 0, 10)).map((o) => o.reportId)).toEqual(['p1']);
      expect((await store.reporterOutcomes({ platform: 'chatplatform', id: 'same' }, 0, 10)).map((o) => o.reportId)).toEqual(['p2']);
      expect((await store.reporterOutcomes(gamer(odd), 0, 10)).map((o) => o.reportId)).toEqual(['p3']);
      expect(await store.reporterOutcomes(gamer('a/b'), 0, 10)).toEqual([]);
    });

    it('an undo moves each report of the case to the end, reopened and not actioned; the next decision moves it again', async () => {
      const first = await caseOf([report('x1', 'u1', 1_000, 'alice')]);
      const second = await caseOf([report('y1', 'u2', 1_001, 'alice')]);
      const approved = await decide(first, 'approved', 6_000);
      await decide(second, 'dismissed', 6_500);
      const before = await store.reporterOutcomes(gamer('alice'), 0, 10);
      const reopened = await decide(approved, 'open', 7_000);
      const afterUndo = await store.reporterOutcomes(gamer('alice'), 0, 10);
      expect(brief(afterUndo)).toEqual([
        ['y1', false, false, 6_500],
        ['x1', false, true, 7_000],
      ]);
      // A reader that saw the approval learns of its undo by paging on from where it stopped.
      expect(brief(await store.reporterOutcomes(gamer('alice'), before.at(-1)!.seq, 10))).toEqual([['x1', false, true, 7_000]]);
      // A report joining the reopened case has no outcome until the case is decided again.
      await store.saveReports([report('x2', 'u1', 7_500, 'alice')]);
      expect((await store.reporterOutcomes(gamer('alice'), 0, 10)).map((o) => o.reportId)).toEqual(['y1', 'x1']);
      await decide(reopened, 'dismissed', 8_000);
      expect(brief(await store.reporterOutcomes(gamer('alice'), 0, 10))).toEqual([
        ['y1', false, false, 6_500],
        ['x1', false, false, 8_000],
        ['x2', false, false, 8_000],
      ]);
    });

    it('pages by seq: after, limit, a limit of 0, and results longer than one MongoDB reply', async () => {
      for (let i = 0; i < 130; i++) await decide(await caseOf([report(`m${i}`, `user-${i}`, 1_000 + i, 'many')]), i % 2 === 0 ? 'approved' : 'dismissed', 5_000 + i);
      const whole = await store.reporterOutcomes(gamer('many'), 0, 1_000);
      expect(whole.map((o) => o.reportId)).toEqual(Array.from({ length: 130 }, (_, i) => `m${i}`));
      expect(whole.map((o) => o.actioned)).toEqual(Array.from({ length: 130 }, (_, i) => i % 2 === 0));
      const paged = await allOutcomes(store, gamer('many'), 7);
      expect(paged).toEqual(whole);
      expect(await store.reporterOutcomes(gamer('many'), whole[9]!.seq, 3)).toEqual(whole.slice(10, 13));
      expect(await store.reporterOutcomes(gamer('many'), whole.at(-1)!.seq, 10)).toEqual([]);
      expect(await store.reporterOutcomes(gamer('many'), 0, 0)).toEqual([]);
    });

    it('a reporter that is not a string names nothing', async () => {
      await decide(await caseOf([report('k1', 'u1', 1_000, 'alice')]), 'approved');
      const nothing = { platform: undefined, id: undefined } as unknown as ReporterRecord;
      expect(await store.reporterOutcomes(nothing, 0, 10)).toEqual([]);
      expect(await store.reporterOutcomes({ platform: 'gameplatform', id: undefined } as unknown as ReporterRecord, 0, 10)).toEqual([]);
    });
  });
}

/** Two handles on one store, as two processes have: a reader paging while the other decides. */
export function describeSharedReporterOutcomesContract(name: string, openPair: () => Promise<[Store, Store]>): void {
  describe(`${name} store (reporter outcomes): two handles`, { timeout: 60_000 }, () => {
    it('a reader paging by the last seq it saw misses no outcome while decisions commit', async () => {
      const [writer, reader] = await openPair();
      try {
        const CASES = 60;
        const cases: CaseRecord[] = [];
        for (let i = 0; i < CASES; i++) {
          const saved = await writer.saveReports([report(`g${i}-a`, `gap-user-${i}`, 1_000 + i, 'watcher'), report(`g${i}-b`, `gap-user-${i}`, 1_000 + i, 'watcher')]);
          cases.push((await writer.getCase(saved[0]!.caseId))!);
        }
        let done = false;
        // Two deciders at once, so commits interleave.
        const deciding = Promise.all(
          [0, 1].map(async (lane) => {
            for (let i = lane; i < CASES; i += 2) await writer.transitionCase(move(cases[i]!, i % 3 === 0 ? 'dismissed' : 'approved', 5_000 + i));
          }),
        ).finally(() => {
          done = true;
        });
        const seen = new Map<string, ReportOutcome>();
        let after = 0;
        let previous = 0;
        for (let reads = 0; reads < 100_000; reads++) {
          const finished = done;
          const page = await reader.reporterOutcomes(gamer('watcher'), after, 5);
          for (const o of page) {
            expect(o.seq).toBeGreaterThan(previous);
            previous = o.seq;
            seen.set(o.reportId, o);
          }
          if (page.length > 0) after = page.at(-1)!.seq;
          else if (finished) break;
        }
        await deciding;
        expect(seen.size).toBe(2 * CASES);
        for (let i = 0; i < CASES; i++) expect(seen.get(`g${i}-a`)?.actioned).toBe(i % 3 !== 0);
      } finally {
        await writer.close();
        await reader.close();
      }
    });
  });
}
