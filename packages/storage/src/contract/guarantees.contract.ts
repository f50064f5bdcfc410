import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CaseRecord, CaseState, CaseTriageRecord, NewReport } from '../index.js';
import type { Store } from '../index.js';
import { OpenCaseConflictError } from '../index.js';
import { caseMover, report } from './fixtures.contract.js';

/**
 * Guarantees a production store must keep under load and odd input, each found missing once in an
 * adapter (issue 33): a batch all or nothing, a page and its total from one moment, every list in
 * its documented order, a scan alongside writes, unknown cases and undefined keys answered as
 * "nothing", and results longer than one MongoDB reply batch (101 documents). Part of the Store
 * contract: describeStoreContract and describeSharedStoreContract run it for every adapter.
 */

const move = caseMover('guarantee', { result: { ok: true } });

const triage = (caseId: string): CaseTriageRecord => ({
  caseId,
  priority: 10,
  reportCount: 1,
  distinctReporters: 1,
  categories: ['cheating'],
  flags: [],
  firedRules: [],
  lastReportAt: 1_000,
  updatedAt: 2_000,
});

/** A brigade: reports about one player from this many callers at once (intake workers), this many in all. */
export const FLOOD_CALLERS = 8;
export const FLOOD_REPORTS = 2_000;

/** Longer than the first reply batch of a MongoDB find or aggregate (101 documents). */
const MORE_THAN_ONE_REPLY = 130;

/** Every page of a scan, in order. */
async function scanAll(store: Store, pageSize: number, between: () => Promise<void> = () => Promise.resolve()): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 1_000; pages++) {
    const page: { reports: { id: string }[]; cursor: string | null } = await store.scanReports(cursor, pageSize);
    seen.push(...page.reports.map((r) => r.id));
    cursor = page.cursor;
    if (cursor === null) return seen;
    await between();
  }
  throw new Error('the scan did not end');
}

export function describeGuaranteesContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Store guarantees: ${name}`, { timeout: 60_000 }, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    const caseOf = async (r: NewReport): Promise<CaseRecord> => (await store.getCase((await store.saveReports([r]))[0]!.caseId))!;

    describe('a batch of reports is all or nothing', () => {
      it('when one report of a batch cannot be stored, none is, and no case is opened', async () => {
        const circular: Record<string, unknown> = {};
        circular['self'] = circular;
        // Fails where each adapter writes it (JSON for SQLite, BSON for MongoDB), after the others.
        const bad = report('bad', 'u2', 3_000, { answers: [{ questionId: 'q1', answer: circular as unknown as string }] });
        await expect(store.saveReports([report('good-1', 'u1', 1_000), report('good-2', 'u2', 2_000), bad])).rejects.toThrow();
        expect(await store.getReport('good-1')).toBeNull();
        expect(await store.getReport('good-2')).toBeNull();
        expect(await store.openCaseOfUser('u1')).toBeNull();
        expect(await store.openCases('', 10)).toEqual([]);
        // The same batch without it is stored whole.
        const saved = await store.saveReports([report('good-1', 'u1', 1_000), report('good-2', 'u2', 2_000)]);
        expect(saved.map((s) => [s.reportId, s.created, s.openedCase])).toEqual([
          ['good-1', true, true],
          ['good-2', true, true],
        ]);
      });

      it('a batch joins, opens and repeats in order: later reports join the case an earlier one opened', async () => {
        const [first] = await store.saveReports([report('old', 'u1', 500)]);
        const saved = await store.saveReports([
          report('a', 'u1', 1_000),
          report('b', 'u2', 1_100),
          report('c', 'u2', 1_200),
          report('old', 'u1', 500),
          report('b', 'u2', 1_100),
        ]);
        expect(saved.map((s) => [s.reportId, s.created, s.openedCase])).toEqual([
          ['a', true, false],
          ['b', true, true],
          ['c', true, false],
          ['old', false, false],
          ['b', false, false],
        ]);
        expect(saved[0]!.caseId).toBe(first!.caseId);
        expect(saved[2]!.caseId).toBe(saved[1]!.caseId);
        expect(saved[4]!.caseId).toBe(saved[1]!.caseId);
        expect(await store.caseReportIds(saved[1]!.caseId)).toEqual(['b', 'c']);
        expect((await store.listReportsByUser('u1', { offset: 0, limit: 10 })).total).toBe(2);
      });
    });

    describe('lists in their documented order, ties included', () => {
      it('a user\'s reports newest first, ties by id descending; a case\'s oldest first, ties by id', async () => {
        await store.saveReports([report('r-b', 'u1', 1_000), report('r-c', 'u1', 2_000), report('r-a', 'u1', 1_000), report('r-d', 'u1', 2_000)]);
        expect((await store.listReportsByUser('u1', { offset: 0, limit: 10 })).reports.map((r) => r.id)).toEqual(['r-d', 'r-c', 'r-b', 'r-a']);
        const kase = (await store.openCaseOfUser('u1'))!;
        expect(await store.caseReportIds(kase.id)).toEqual(['r-a', 'r-b', 'r-c', 'r-d']);
        expect((await store.caseReports(kase.id)).map((r) => r.id)).toEqual(['r-a', 'r-b', 'r-c', 'r-d']);
      });

      it('moderators by id, keys by creation then key, a case\'s history by version', async () => {
        for (const id of ['m3', 'm1', 'm2']) await store.addModerator({ id, username: `mod-${id}`, createdAt: 1_000 });
        expect((await store.listModerators()).map((m) => m.id)).toEqual(['m1', 'm2', 'm3']);
        const key = (k: string, createdAt: number) => ({ key: k, name: k, secretHash: 'a'.repeat(64), permissions: [], elevated: false, admin: false, rateLimit: null, createdAt, revokedAt: null });
        for (const [k, at] of [['k2', 1_000], ['k3', 500], ['k1', 1_000]] as const) await store.createApiKey(key(k, at));
        expect((await store.listApiKeys()).map((k) => k.key)).toEqual(['k3', 'k1', 'k2']);
        let c = await caseOf(report('h1', 'u1', 1_000));
        c = (await store.transitionCase(move(c, 'claimed')))!;
        c = (await store.transitionCase(move(c, 'dismissed')))!;
        await store.transitionCase(move(c, 'open'));
        expect((await store.caseHistory(c.id)).map((e) => e.action)).toEqual(['claim', 'dismiss', 'undo']);
        expect(await store.lastCaseEvent(c.id)).toEqual((await store.caseHistory(c.id)).at(-1));
      });

      it('sanctions of a player newest first, due sanctions soonest first, each tie by id', async () => {
        const approve = async (userId: string, decisionId: string, at: number, expiresAt: number | null) => {
          const c = await caseOf(report(`r-${decisionId}`, userId, at - 10));
          await store.transitionCase(move(c, 'approved', { ban: 'set', sanction: { reason: null, expiresAt }, event: { decisionId, action: 'approve', moderatorId: 'mod-1', at, result: null } }));
        };
        await approve('u1', 'd-b', 5_000, 9_000);
        await approve('u1', 'd-c', 6_000, 8_000);
        await approve('u1', 'd-a', 5_000, 9_000);
        expect((await store.sanctionsOfUser('u1')).map((s) => s.id)).toEqual(['d-c', 'd-b', 'd-a']);
        expect((await store.dueSanctions(10_000, 10)).map((s) => s.id)).toEqual(['d-c', 'd-a', 'd-b']);
      });
    });

    describe('writes asked for at once (an adapter may commit them together)', () => {
      it('each is checked and kept or refused on its own: one of two claims wins, a conflict fails alone', async () => {
        const raced = await caseOf(report('w-1', 'w-user-1', 1_000));
        const other = await caseOf(report('w-2', 'w-user-2', 1_000));
        // An undo that would give w-user-3 a second open case: refused with OpenCaseConflictError.
        let approved = (await store.transitionCase(move(await caseOf(report('w-3', 'w-user-3', 1_000)), 'claimed')))!;
        approved = (await store.transitionCase(move(approved, 'approved')))!;
        await caseOf(report('w-4', 'w-user-3', 2_000));

        const results = await Promise.allSettled([
          store.transitionCase(move(raced, 'claimed')),
          store.transitionCase(move(approved, 'open')),
          store.transitionCase(move(raced, 'claimed')),
          store.transitionCase(move(other, 'claimed')),
        ]);
        const [first, conflict, second, alone] = results.map((r) => (r.status === 'fulfilled' ? r.value : r.reason));
        expect([first, second].filter((c) => c !== null)).toHaveLength(1);
        expect(conflict).toBeInstanceOf(OpenCaseConflictError);
        expect(alone).toMatchObject({ id: other.id, state: 'claimed', version: other.version + 1 });
        expect((await store.caseHistory(raced.id)).map((e) => e.action)).toEqual(['claim']);
        expect(await store.getCase(approved.id)).toMatchObject({ state: 'approved', version: approved.version });
        expect(await store.getCase(other.id)).toMatchObject({ state: 'claimed' });
      });
    });

    describe('a flood of reports about one player (a brigade)', { timeout: 300_000 }, () => {
      /** `total` reports about `userId` from `callers` concurrent callers, each storing batches of `batch` in turn. */
      const flood = (prefix: string, userId: string, total: number, callers = FLOOD_CALLERS, batch = 25) =>
        Promise.all(
          Array.from({ length: callers }, async (_, caller) => {
            const saved = [];
            for (let from = caller * batch; from < total; from += callers * batch) {
              const ids = Array.from({ length: Math.min(batch, total - from) }, (_, i) => from + i);
              saved.push(...(await store.saveReports(ids.map((i) => report(`${prefix}-${i}`, userId, 1_000 + i, { reporterId: `rep-${i % 97}` })))));
            }
            return saved;
          }),
        ).then((all) => all.flat());

      it(`${FLOOD_REPORTS} reports from ${FLOOD_CALLERS} concurrent callers: each stored once, all in one case, opened once`, async () => {
        const saved = await flood('f', 'target', FLOOD_REPORTS);
        expect(saved).toHaveLength(FLOOD_REPORTS);
        expect(saved.every((s) => s.created)).toBe(true);
        expect(saved.filter((s) => s.openedCase)).toHaveLength(1);
        const cases = new Set(saved.map((s) => s.caseId));
        expect(cases.size).toBe(1);
        const [caseId] = cases;
        expect((await store.caseReportIds(caseId!)).length).toBe(FLOOD_REPORTS);
        expect((await store.listReportsByUser('target', { offset: 0, limit: 0 })).total).toBe(FLOOD_REPORTS);
        expect((await store.openCaseOfUser('target'))?.id).toBe(caseId);
      });

      it('a decision during the flood: each report is decided with the case, with its outcome, or lands in the next case', async () => {
        const [first] = await store.saveReports([report('d-first', 'target', 500, { reporterId: 'rep-first' })]);
        const kase = (await store.getCase(first!.caseId))!;
        const flooding = flood('d', 'target', 600);
        const decided = (await store.transitionCase(move(kase, 'approved')))!;
        const saved = await flooding;
        const ids = ['d-first', ...saved.map((s) => s.reportId)];
        const inDecided = new Set(await store.caseReportIds(decided.id));
        const next = await store.openCaseOfUser('target');
        const inNext = new Set(next ? await store.caseReportIds(next.id) : []);
        // Every report in exactly one of the two, and answered with the case it is in.
        expect(ids.filter((id) => inDecided.has(id) === inNext.has(id))).toEqual([]);
        for (const s of saved) expect(s.caseId).toBe(inDecided.has(s.reportId) ? decided.id : next!.id);
        // A report in the decided case has its outcome: none left undecided in a decided case.
        const outcomes = new Map<string, boolean>();
        for (const reporter of new Set(['rep-first', ...Array.from({ length: 97 }, (_, i) => `rep-${i}`)])) {
          for (const o of await store.reporterOutcomes({ platform: 'gameplatform', id: reporter }, 0, 1_000)) outcomes.set(o.reportId, o.actioned);
        }
        expect([...inDecided].filter((id) => outcomes.get(id) !== true)).toEqual([]);
        expect([...inNext].filter((id) => outcomes.has(id))).toEqual([]);
        expect(inDecided.has('d-first')).toBe(true);
      });
    });

    describe('unknown cases', () => {
      it('read as nothing, a transition of one answers null, its triage is refused', async () => {
        expect(await store.getCase('no-such-case')).toBeNull();
        expect(await store.caseHistory('no-such-case')).toEqual([]);
        expect(await store.lastCaseEvent('no-such-case')).toBeNull();
        expect(await store.caseReportIds('no-such-case')).toEqual([]);
        expect(await store.caseReporters('no-such-case')).toEqual([]);
        expect(await store.caseReports('no-such-case')).toEqual([]);
        expect(await store.getCaseTriage('no-such-case')).toBeNull();
        expect(await store.getCaseMessage('no-such-case')).toBeNull();
        const ghost: CaseRecord = { id: 'no-such-case', userId: 'u1', state: 'open', claimedBy: null, version: 1, createdAt: 1, updatedAt: 1, slaBreached: false };
        expect(await store.transitionCase(move(ghost, 'claimed'))).toBeNull();
        expect(await store.recordSlaBreach({ caseId: 'no-such-case', openingId: 'opened', category: 'x', at: 1 })).toBe(false);
        await expect(store.setCaseTriage(triage('no-such-case'))).rejects.toThrow();
        expect(await store.listCases({ states: ['open'], sort: 'oldest', agePerHour: 0, now: 0, page: { offset: 0, limit: 10 } })).toEqual({ total: 0, cases: [] });
      });
    });

    describe('undefined keys', () => {
      // A caller's bug must not reach an arbitrary record: MongoDB's ignoreUndefined would drop the
      // key from the filter, SQLite binds NULL and matches nothing.
      const none = undefined as unknown as string;

      it('every lookup answers nothing, and nothing changes', async () => {
        await store.createApiKey({ key: 'k1', name: 'k1', secretHash: 'a'.repeat(64), permissions: [], elevated: false, admin: false, rateLimit: null, createdAt: 1, revokedAt: null });
        await store.addUser({ id: 'u1', name: 'n', displayName: 'N', avatar: null });
        await store.addModerator({ id: 'm1', username: 'm', createdAt: 1 });
        const c = await caseOf(report('r1', 'u1', 1_000));
        await store.setCaseTriage(triage(c.id));
        const approved = (await store.transitionCase(move(c, 'approved', { ban: 'set', effects: [{ id: 'e1', kind: 'k', payload: null }] })))!;
        await store.recordMessage({ channel: 'ch', kind: 'case', content: 'x', dedupeKey: 'dk' });
        await store.recordDelivery({ key: 'dl1', externalId: null, deliveredAt: 1 });

        expect(await store.getApiKey(none)).toBeNull();
        expect(await store.revokeApiKey(none, 9)).toBe(false);
        expect((await store.getApiKey('k1'))?.revokedAt).toBeNull();
        expect(await store.getUser(none)).toBeNull();
        expect(await store.isBanned(none)).toBe(false);
        expect(await store.getModerator(none)).toBeNull();
        expect(await store.getReport(none)).toBeNull();
        expect(await store.listReportsByUser(none, { offset: 0, limit: 10 })).toEqual({ total: 0, reports: [] });
        expect(await store.getCase(none)).toBeNull();
        expect(await store.openCaseOfUser(none)).toBeNull();
        expect(await store.caseReportIds(none)).toEqual([]);
        expect(await store.caseReporters(none)).toEqual([]);
        expect(await store.caseReports(none)).toEqual([]);
        expect(await store.findDecision(none)).toBeNull();
        expect(await store.caseHistory(none)).toEqual([]);
        expect(await store.lastCaseEvent(none)).toBeNull();
        expect(await store.editMessage(none, 'changed', 9)).toBeNull();
        expect(await store.getCaseMessage(none)).toBeNull();
        expect(await store.findDelivery(none)).toBeNull();
        expect(await store.sanctionsOfUser(none)).toEqual([]);
        expect(await store.getSanction(none)).toBeNull();
        expect(await store.sanctionEventsOf(none)).toEqual([]);
        expect(await store.pendingEffectsOf(none)).toEqual([]);
        expect(await store.getCaseTriage(none)).toBeNull();
        expect(await store.reporterStats([{ platform: none, id: none }])).toEqual([]);
        // Changes keyed by an undefined id change nothing.
        const reopened = await store.transitionCase({ ...move(approved, 'open', { ban: 'lift' }), caseId: none });
        expect(reopened).toBeNull();
        expect(await store.liftSanction({ sanctionId: none, at: 9, moderatorId: 'm1', sourceId: 'x', effects: [] })).toBeNull();
        expect(await store.expireSanction({ sanctionId: none, at: Number.MAX_SAFE_INTEGER, sourceId: 'y', effects: [] })).toBeNull();
        expect(await store.recordSlaBreach({ caseId: none, openingId: 'opened', category: 'x', at: 1 })).toBe(false);
        await store.completeEffects([none], 9);
        // Privacy: holds, a subject's records and an erasure step keyed by an undefined id.
        await store.placeHold({ id: 'h1', target: { type: 'player', id: 'u1' }, reason: 'court order', until: null, placedBy: 'k1', placedAt: 1 });
        expect(await store.getHold(none)).toBeNull();
        expect(await store.releaseHold({ id: none, by: 'k1', reason: null, at: 9 })).toBeNull();
        expect(await store.holdsOn([{ type: 'player', id: none }], null)).toEqual([]);
        expect(await store.evidenceAudit(none)).toEqual([]);
        expect(await store.subjectReports({ kind: 'player', userId: none }, null, 10)).toEqual({ reports: [], cursor: null });
        expect((await store.subjectRecords({ kind: 'reporter', platform: 'gameplatform', reporterId: none })).outcomes).toEqual([]);
        const player = await store.subjectRecords({ kind: 'player', userId: none });
        expect([player.user, player.cases, player.sanctions, player.holds]).toEqual([null, [], [], []]);
        const keep = { categoryQuestionId: 'q', categories: [] };
        await store.eraseSubject({ subject: { kind: 'player', userId: none }, cursor: null, limit: 10, keep, pseudonym: 'p', at: 9, dryRun: false }).catch(() => undefined);
        expect((await store.getHold('h1'))?.releasedAt).toBeNull();
        expect(await store.getUser('u1')).not.toBeNull();
        expect((await store.getReport('r1'))?.answers).toEqual(report('r1', 'u1', 1_000).answers);
        expect(await store.getCase(c.id)).toMatchObject({ state: 'approved' });
        expect(await store.isBanned('u1')).toBe(true);
        expect((await store.listMessages(10)).map((m) => m.content)).toEqual(['x']);
        expect(await store.pendingEffects(Number.MAX_SAFE_INTEGER, 10)).toHaveLength(1);
        expect(await store.slaBreachesSince(0)).toEqual([]);
      });
    });

    describe('results longer than one reply', () => {
      it(`${MORE_THAN_ONE_REPLY} open cases, banned players, timelines and reports come back whole`, async () => {
        const users = Array.from({ length: MORE_THAN_ONE_REPLY }, (_, i) => `many-${String(i).padStart(4, '0')}`);
        const saved = await store.saveReports(users.map((u, i) => report(`rm-${i}`, u, 1_000 + i)));
        expect(saved.every((s) => s.created && s.openedCase)).toBe(true);
        expect(await store.openCases('', 1_000)).toHaveLength(MORE_THAN_ONE_REPLY);
        for (const s of saved) {
          const c = (await store.getCase(s.caseId))!;
          await store.transitionCase(move(c, 'approved', { ban: 'set' }));
        }
        expect(await store.bannedUserIds('', 1_000)).toEqual(users);
        expect(await store.caseTimelinesSince(0)).toHaveLength(MORE_THAN_ONE_REPLY);
        expect(await store.sanctionFeed(0, 1_000)).toHaveLength(MORE_THAN_ONE_REPLY);
        await store.saveReports(Array.from({ length: MORE_THAN_ONE_REPLY }, (_, i) => report(`one-${i}`, 'one-user', 2_000 + i)));
        const page = await store.listReportsByUser('one-user', { offset: 0, limit: 1_000 });
        expect([page.total, page.reports.length]).toEqual([MORE_THAN_ONE_REPLY, MORE_THAN_ONE_REPLY]);
        expect(await scanAll(store, 1_000)).toHaveLength(2 * MORE_THAN_ONE_REPLY);
      });
    });

    describe('a scan while reports are stored', () => {
      it('gives every report stored before it began exactly once, and a report stored during it at most once', async () => {
        const before = Array.from({ length: 12 }, (_, i) => report(`m-${String(i).padStart(2, '0')}`, `scan-${i % 4}`, 1_000 + i));
        await store.saveReports(before);
        let n = 0;
        // Between pages, reports whose ids sort before and after every id seen so far.
        const seen = await scanAll(store, 3, async () => {
          n++;
          await store.saveReports([report(`a-${n}`, `scan-${n % 4}`, 5_000 + n), report(`z-${n}`, `scan-${n % 5}`, 5_000 + n)]);
        });
        expect(new Set(seen).size).toBe(seen.length);
        for (const r of before) expect(seen).toContain(r.id);
      });
    });
  });
}

/** The same guarantees between two handles on one store, as two processes have. */
export function describeSharedGuaranteesContract(name: string, openPair: () => Promise<[Store, Store]>): void {
  const withPair = async (fn: (a: Store, b: Store) => Promise<void>) => {
    const [a, b] = await openPair();
    try {
      await fn(a, b);
    } finally {
      await a.close();
      await b.close();
    }
  };

  describe(`${name} store guarantees: two handles`, { timeout: 60_000 }, () => {
    it('a page and its total agree while the other handle stores reports and moves cases', () =>
      withPair(async (a, b) => {
        const kase = (await a.getCase((await a.saveReports([report('p-0', 'paged', 1_000)]))[0]!.caseId))!;
        await a.setCaseTriage(triage(kase.id));
        let current = kase;
        for (let round = 1; round <= 15; round++) {
          const next: CaseState = current.state === 'open' ? 'claimed' : 'open';
          const [, listed, cases] = await Promise.all([
            Promise.all([
              b.saveReports([report(`p-${round}`, 'paged', 1_000 + round)]),
              b.transitionCase(move(current, next)),
            ]),
            a.listReportsByUser('paged', { offset: 0, limit: 1_000 }),
            a.listCases({ states: ['open'], sort: 'oldest', agePerHour: 0, now: 0, page: { offset: 0, limit: 10 } }),
          ]);
          expect(listed.reports).toHaveLength(listed.total);
          expect(cases.cases).toHaveLength(cases.total);
          current = (await a.getCase(kase.id))!;
        }
      }));

    it('a scan while the other handle stores reports: every report stored before it began exactly once, none twice', () =>
      withPair(async (a, b) => {
        const before = Array.from({ length: 40 }, (_, i) => report(`sb-${String(i).padStart(2, '0')}`, `scan-shared-${i % 7}`, 1_000 + i));
        await a.saveReports(before);
        // Ids sorting before and after every id the scan has seen, stored by the other handle as it
        // reads (a bounded number: on SQLite the scan also returns them, so it ends after they do).
        const writer = (async () => {
          for (let n = 1; n <= 30; n++) {
            await b.saveReports([report(`sa-${n}`, `scan-shared-${n % 5}`, 5_000 + n), report(`sz-${n}`, `scan-shared-${n % 3}`, 5_000 + n)]);
          }
        })();
        const seen = await scanAll(a, 4, () => new Promise((resolve) => setTimeout(resolve, 5)));
        await writer;
        expect(new Set(seen).size).toBe(seen.length);
        for (const r of before) expect(seen).toContain(r.id);
      }));

    it('a lift and an expiry of one sanction at once: one ends it, the feed has one end event, seqs without a gap', () =>
      withPair(async (a, b) => {
        for (let round = 0; round < 10; round++) {
          const userId = `race-end-${round}`;
          const c = (await a.getCase((await a.saveReports([report(`re-${round}`, userId, 1_000)]))[0]!.caseId))!;
          const id = `race-approve-${round}`;
          await a.transitionCase(move(c, 'approved', { ban: 'set', sanction: { reason: null, expiresAt: 2_000 }, event: { decisionId: id, action: 'approve', moderatorId: 'mod-1', at: 1_500, result: null } }));
          const [lifted, expired] = await Promise.all([
            a.liftSanction({ sanctionId: id, at: 3_000, moderatorId: 'mod-2', reason: 'appeal', sourceId: `lift-${round}`, effects: [] }),
            b.expireSanction({ sanctionId: id, at: 3_000, sourceId: `expire-${round}`, effects: [] }),
          ]);
          expect([lifted, expired].filter((s) => s !== null)).toHaveLength(1);
          expect((await b.sanctionEventsOf(id)).map((e) => e.type)).toEqual(['sanction.created', lifted ? 'sanction.lifted' : 'sanction.expired']);
        }
        const feed = await a.sanctionFeed(0, 1_000);
        expect(feed.map((e) => e.seq)).toEqual(feed.map((_, i) => i + 1));
      }));
  });
}
