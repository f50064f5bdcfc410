import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SLA_BREACHED_FLAG, type CaseQuery, type CaseRecord, type CaseState, type CaseTriageRecord, type NewReport, type Transition } from '../index.js';
import type { Store } from '../index.js';
import { report as baseReport } from './fixtures.contract.js';

const report = (id: string, userId: string, receivedAt: number, reporterId: string, platform = 'gameplatform') =>
  baseReport(id, userId, receivedAt, { reporterId, reporterPlatform: platform, answers: [{ questionId: 'category', answer: 'cheating' }], evidence: [{ url: `https://example.test/${id}.png`, type: 'url' }] });

/** The triage part of the storage contract; describeStoreContract runs it for every adapter. */

let seq = 0;
const ACTION: Record<CaseState, Transition['event']['action']> = { claimed: 'claim', approved: 'approve', dismissed: 'dismiss', open: 'undo' };
const move = (from: CaseRecord, state: CaseState): Transition => ({
  caseId: from.id,
  expectedVersion: from.version,
  expectedState: from.state,
  next: { state, claimedBy: state === 'claimed' ? 'mod-1' : null },
  event: { decisionId: `triage-decision-${++seq}`, action: ACTION[state], moderatorId: 'mod-1', at: 5_000, result: { ok: true } },
});

const triage = (caseId: string, overrides: Partial<CaseTriageRecord> = {}): CaseTriageRecord => ({
  caseId,
  priority: 10,
  reportCount: 1,
  distinctReporters: 1,
  categories: ['cheating'],
  flags: [],
  firedRules: [],
  lastReportAt: 1_000,
  updatedAt: 2_000,
  ...overrides,
});

const query = (overrides: Partial<CaseQuery> = {}): CaseQuery => ({
  states: ['open', 'claimed'],
  sort: 'priority',
  agePerHour: 0,
  now: 10_000,
  page: { offset: 0, limit: 25 },
  ...overrides,
});

export function describeTriageContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Store contract (triage): ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    const caseOf = async (reports: NewReport[]) => (await store.getCase((await store.saveReports(reports))[0]!.caseId))!;
    const decide = async (c: CaseRecord, state: CaseState) => (await store.transitionCase(move(c, state)))!;
    const stats = (ids: string[], platform = 'gameplatform') => store.reporterStats(ids.map((id) => ({ platform, id })));

    describe('reporter stats', () => {
      it('are absent for a reporter never decided on', async () => {
        await caseOf([report('r1', 'u1', 1_000, 'a')]);
        expect(await stats(['a', 'nobody'])).toEqual([]);
      });

      it('an approval counts each distinct reporter of the case once; a dismissal counts dismissed', async () => {
        const c1 = await caseOf([report('r1', 'u1', 1_000, 'a'), report('r2', 'u1', 1_001, 'a'), report('r3', 'u1', 1_002, 'b')]);
        await decide(c1, 'approved');
        const c2 = await caseOf([report('r4', 'u2', 1_003, 'a')]);
        await decide(await decide(c2, 'claimed'), 'dismissed');
        expect((await stats(['a', 'b'])).sort((x, y) => x.id.localeCompare(y.id))).toEqual([
          { platform: 'gameplatform', id: 'a', approved: 1, dismissed: 1 },
          { platform: 'gameplatform', id: 'b', approved: 1, dismissed: 0 },
        ]);
      });

      it('an undo reverts the count; claim and unclaim change nothing', async () => {
        const c = await caseOf([report('r1', 'u1', 1_000, 'a')]);
        const claimed = await decide(c, 'claimed');
        expect(await stats(['a'])).toEqual([]);
        const approved = await decide(claimed, 'approved');
        await decide(approved, 'open');
        expect(await stats(['a'])).toEqual([{ platform: 'gameplatform', id: 'a', approved: 0, dismissed: 0 }]);
      });

      it('a stale transition counts nothing', async () => {
        const c = await caseOf([report('r1', 'u1', 1_000, 'a')]);
        await decide(c, 'approved');
        expect(await store.transitionCase(move(c, 'dismissed'))).toBeNull();
        expect(await stats(['a'])).toEqual([{ platform: 'gameplatform', id: 'a', approved: 1, dismissed: 0 }]);
      });

      it('keeps reporters of different platforms with the same id apart', async () => {
        const c = await caseOf([report('r1', 'u1', 1_000, 'a', 'chatplatform')]);
        await decide(c, 'approved');
        expect(await stats(['a'])).toEqual([]);
        expect(await stats(['a'], 'chatplatform')).toEqual([{ platform: 'chatplatform', id: 'a', approved: 1, dismissed: 0 }]);
      });
    });

    describe('case reports and triage', () => {
      it('caseReports lists the case’s reports oldest first, with every field', async () => {
        const c = await caseOf([report('r2', 'u1', 2_000, 'b'), report('r1', 'u1', 1_000, 'a')]);
        await caseOf([report('r3', 'u2', 1_500, 'a')]);
        const reports = await store.caseReports(c.id);
        expect(reports.map((r) => r.id)).toEqual(['r1', 'r2']);
        expect(reports[0]).toEqual({ ...report('r1', 'u1', 1_000, 'a'), caseId: c.id });
      });

      it('stores, replaces and reads a case’s triage; null before', async () => {
        const c = await caseOf([report('r1', 'u1', 1_000, 'a')]);
        expect(await store.getCaseTriage(c.id)).toBeNull();
        await store.setCaseTriage(triage(c.id));
        const replaced = triage(c.id, { priority: 42.5, flags: ['suspected_brigade'], firedRules: ['x'], categories: ['cheating', 'spam'] });
        await store.setCaseTriage(replaced);
        expect(await store.getCaseTriage(c.id)).toEqual(replaced);
      });

      it('caseTriages reads many cases’ triage at once; an untriaged or unknown case is left out', async () => {
        const a = await caseOf([report('r1', 'u1', 1_000, 'a')]);
        const b = await caseOf([report('r2', 'u2', 1_000, 'a')]);
        const untriaged = await caseOf([report('r3', 'u3', 1_000, 'a')]);
        await store.setCaseTriage(triage(a.id));
        await store.setCaseTriage(triage(b.id, { priority: 7 }));
        const found = await store.caseTriages([a.id, untriaged.id, 'no-such-case', b.id]);
        expect(found.sort((x, y) => x.priority - y.priority)).toEqual([triage(b.id, { priority: 7 }), triage(a.id)].sort((x, y) => x.priority - y.priority));
        expect(await store.caseTriages([])).toEqual([]);
      });

      it('a transition keeps the triage', async () => {
        const c = await caseOf([report('r1', 'u1', 1_000, 'a')]);
        await store.setCaseTriage(triage(c.id));
        await decide(c, 'claimed');
        expect(await store.getCaseTriage(c.id)).toEqual(triage(c.id));
      });
    });

    describe('listCases', () => {
      /** Three triaged open cases opened at 1000, 2000, 3000 with priorities 5, 30, 20, and one untriaged. */
      async function three() {
        const a = await caseOf([report('ra', 'ua', 1_000, 'x')]);
        const b = await caseOf([report('rb', 'ub', 2_000, 'x')]);
        const c = await caseOf([report('rc', 'uc', 3_000, 'x')]);
        await caseOf([report('rd', 'ud', 4_000, 'x')]);
        await store.setCaseTriage(triage(a.id, { priority: 5, categories: ['spam'] }));
        await store.setCaseTriage(triage(b.id, { priority: 30, flags: ['suspected_brigade'] }));
        await store.setCaseTriage(triage(c.id, { priority: 20 }));
        return { a, b, c };
      }
      const ids = async (q: Partial<CaseQuery>) => (await store.listCases(query(q))).cases.map((x) => x.case.id);

      it('sorts by priority, oldest and newest, with the triage beside each case', async () => {
        const { a, b, c } = await three();
        expect(await ids({ sort: 'priority' })).toEqual([b.id, c.id, a.id]);
        expect(await ids({ sort: 'oldest' })).toEqual([a.id, b.id, c.id]);
        expect(await ids({ sort: 'newest' })).toEqual([c.id, b.id, a.id]);
        const listed = await store.listCases(query());
        expect(listed.total).toBe(3);
        expect(listed.cases[0]).toEqual({ case: b, triage: triage(b.id, { priority: 30, flags: ['suspected_brigade'] }) });
      });

      it('priority adds agePerHour × hours open as of now, so an old case can pass a newer one', async () => {
        const { a, b, c } = await three();
        // 0.03 a millisecond: a (open 9 s) gains 270, b (8 s) 240, c (7 s) 210: a passes b and c.
        expect(await ids({ agePerHour: 3_600_000 * 0.03 })).toEqual([a.id, b.id, c.id]);
      });

      it('filters by category, flag and state, and counts every match', async () => {
        const { a, b } = await three();
        expect(await ids({ category: 'spam' })).toEqual([a.id]);
        expect(await ids({ flag: 'suspected_brigade' })).toEqual([b.id]);
        expect(await ids({ flag: 'nothing' })).toEqual([]);
        await decide(a, 'approved');
        expect(await ids({ states: ['approved'] })).toEqual([a.id]);
        expect((await store.listCases(query())).total).toBe(2);
      });

      it('a case past its SLA is listed under the flag sla_breached, and reads slaBreached, still after a decision', async () => {
        const { a, b, c } = await three();
        expect(await ids({ flag: SLA_BREACHED_FLAG })).toEqual([]);
        expect((await store.getCase(c.id))!.slaBreached).toBe(false);
        await store.recordSlaBreach({ caseId: c.id, openingId: 'opened', category: 'x', at: 9_000 });
        expect(await ids({ flag: SLA_BREACHED_FLAG })).toEqual([c.id]);
        expect(await ids({ flag: SLA_BREACHED_FLAG, category: 'spam' })).toEqual([]);
        expect(await ids({ flag: 'suspected_brigade' })).toEqual([b.id]);
        const listed = (await store.listCases(query({ flag: SLA_BREACHED_FLAG }))).cases[0]!;
        expect(listed.case).toMatchObject({ id: c.id, slaBreached: true });
        expect(listed.triage.flags).toEqual([]);
        expect((await store.getCase(a.id))!.slaBreached).toBe(false);
        const claimed = await decide((await store.getCase(c.id))!, 'claimed');
        expect(claimed.slaBreached).toBe(true);
        expect(await ids({ flag: SLA_BREACHED_FLAG })).toEqual([c.id]);
        await decide(claimed, 'dismissed');
        expect(await ids({ flag: SLA_BREACHED_FLAG })).toEqual([]);
        expect(await ids({ flag: SLA_BREACHED_FLAG, states: ['dismissed'] })).toEqual([c.id]);
      });

      it('pages with offset and limit', async () => {
        const { c } = await three();
        const page = await store.listCases(query({ page: { offset: 1, limit: 1 } }));
        expect(page.total).toBe(3);
        expect(page.cases.map((x) => x.case.id)).toEqual([c.id]);
        expect(await ids({ page: { offset: 3, limit: 5 } })).toEqual([]);
      });
    });

    describe('scanReports', () => {
      it('visits every report once, page by page, then answers a null cursor', async () => {
        const all = Array.from({ length: 7 }, (_, i) => report(`r${i}`, `u${i % 3}`, 1_000 + i, 'a'));
        await store.saveReports(all);
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const page: { reports: { id: string }[]; cursor: string | null } = await store.scanReports(cursor, 3);
          seen.push(...page.reports.map((r) => r.id));
          cursor = page.cursor;
          pages++;
        } while (cursor !== null && pages < 10);
        expect(seen.sort()).toEqual(all.map((r) => r.id).sort());
      });

      it('answers an empty page and a null cursor on an empty store', async () => {
        expect(await store.scanReports(null, 10)).toEqual({ reports: [], cursor: null });
      });
    });
  });
}
