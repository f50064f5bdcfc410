import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ERASED_TEXT, RETENTION_KINDS } from '../index.js';
import type { AnswerKeep, CaseRecord, PrivacySubject, RetentionStepOutcome, RetentionSweepKind, Store } from '../index.js';
import { caseMover, report } from './fixtures.contract.js';
import { statementFixture } from './statements.contract.js';

const KEEP: AnswerKeep = { categoryQuestionId: 'category', categories: ['cheating', 'harassment'] };
const SHA = 'e'.repeat(64);
const FIGURES = { categoryQuestionId: 'category', categories: KEEP.categories, defaultCategory: 'other' };

type Sum = Omit<RetentionStepOutcome, 'cursor'> & { steps: number };

/** A whole sweep of one kind, `limit` records per step, summed. */
async function sweep(store: Store, kind: RetentionSweepKind, before: number, options: { limit?: number; dryRun?: boolean; at?: number } = {}): Promise<Sum> {
  const sum: Sum = { examined: 0, erased: 0, kept: {}, evidenceItems: 0, unheldBlobs: [], caseMessages: [], erasedIds: [], steps: 0 };
  for (let cursor: string | null = null; sum.steps < 1_000; ) {
    const out = await store.sweepRetention({ kind, before, cursor, limit: options.limit ?? 100, keep: KEEP, at: options.at ?? 50_000, dryRun: options.dryRun ?? false });
    sum.steps += 1;
    sum.examined += out.examined;
    sum.erased += out.erased;
    for (const [reason, n] of Object.entries(out.kept)) sum.kept[reason as keyof Sum['kept']] = (sum.kept[reason as keyof Sum['kept']] ?? 0) + n;
    sum.evidenceItems += out.evidenceItems;
    sum.unheldBlobs.push(...out.unheldBlobs);
    sum.caseMessages.push(...out.caseMessages);
    sum.erasedIds.push(...out.erasedIds);
    if (out.cursor === null) return sum;
    cursor = out.cursor;
  }
  throw new Error(`the ${kind} sweep did not end`);
}

/** A whole erasure of a subject at `at` (privacy.contract.ts has the rest of erasure's contract). */
async function erase(store: Store, subject: PrivacySubject, at: number): Promise<void> {
  for (let cursor: string | null = null; ; ) {
    const out = await store.eraseSubject({ subject, cursor, limit: 100, keep: KEEP, pseudonym: 'erased-reporter', at, dryRun: false });
    if (out.cursor === null) return;
    cursor = out.cursor;
  }
}

/** A report with free text, a category, names and an evidence link. */
const personal = (id: string, userId: string, at: number, reporterId: string) =>
  report(id, userId, at, {
    reporterId,
    answers: [
      { questionId: 'category', answer: 'Cheating' },
      { questionId: 'details', answer: `words of ${id}` },
    ],
    evidence: [{ url: `https://clips.example/${id}.png`, type: 'url', createEvidence: true }],
    user: { name: `Name${userId}`, displayName: `Display ${userId}`, avatar: 'https://avatars.example/a.png' },
  });

/** The retention part of the storage contract (docs/privacy.md#retention); describeStoreContract runs it for every adapter. */
export function describeRetentionContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Store contract (retention): ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });
    const move = caseMover('retention');

    const caseOf = async (reportId: string): Promise<CaseRecord> => (await store.getCase((await store.getReport(reportId))!.caseId))!;

    /**
     * Four players: ra's case approved into an active ban with an appeal waiting; rb's dismissed
     * (three reports by two reporters, kept evidence, a chat message); rc's approved, its sanction
     * upheld on appeal then lifted; rd's dismissed, under a hold on the player.
     */
    async function plant() {
      await store.saveReports([personal('ra-1', 'ra', 1_000, 'rep-1')]);
      const a = (await store.transitionCase(move(await caseOf('ra-1'), 'approved', { ban: 'set', sanction: { reason: 'seen cheating by ra', expiresAt: null, kind: 'ban', blocksLogin: true, category: 'cheating', statement: statementFixture({ from: 5_000 }) } })))!;
      const banA = (await store.sanctionsOfUser('ra'))[0]!;
      await store.createAppeal({ id: 'appeal-a', sanctionId: banA.id, userId: 'ra', caseId: a.id, category: 'cheating', sanctionModeratorId: 'mod-1', automated: false, statement: 'appeal words of ra', at: 6_000, effects: [] });

      await store.saveReports([personal('rb-1', 'rb', 1_000, 'rep-1'), personal('rb-2', 'rb', 1_100, 'rep-2'), personal('rb-3', 'rb', 1_200, 'rep-1')]);
      const b0 = await caseOf('rb-1');
      await store.recordEvidence({ reportId: 'rb-1', index: 0, caseId: b0.id, state: 'captured', failure: null, detail: 'fetched from clips.example', sha256: SHA, size: 10, contentType: 'image/png', capturedAt: 2_000, at: 2_000 });
      await store.setCaseMessage({ caseId: b0.id, channel: 'reports', messageId: 'msg-b', updatedAt: 3_000 });
      const b = (await store.transitionCase(move(b0, 'dismissed')))!;

      await store.saveReports([personal('rc-1', 'rc', 1_000, 'rep-3')]);
      const c = (await store.transitionCase(move(await caseOf('rc-1'), 'approved', { ban: 'set', sanction: { reason: 'seen cheating by rc', expiresAt: null, kind: 'ban', blocksLogin: true, category: 'cheating' } })))!;
      const banC = (await store.sanctionsOfUser('rc'))[0]!;
      const appealC = (await store.createAppeal({ id: 'appeal-c', sanctionId: banC.id, userId: 'rc', caseId: c.id, category: 'cheating', sanctionModeratorId: 'mod-1', automated: false, statement: 'appeal words of rc', at: 6_000, effects: [] })).appeal;
      await store.transitionAppeal({
        appealId: appealC.id,
        expectedVersion: appealC.version,
        expectedState: 'open',
        next: { state: 'upheld', claimedBy: null },
        resolution: { outcome: 'upheld', reason: 'reviewer words on rc' },
        event: { decisionId: 'appeal-c-uphold', action: 'uphold', moderatorId: 'mod-2', reason: 'reviewer words on rc', at: 7_000, result: null },
      });
      await store.liftSanction({ sanctionId: banC.id, at: 8_000, moderatorId: 'mod-1', reason: 'lifted after review of rc', sourceId: 'lift-c', effects: [] });

      await store.saveReports([personal('rd-1', 'rd', 1_000, 'rep-4')]);
      const d = (await store.transitionCase(move(await caseOf('rd-1'), 'dismissed')))!;
      await store.placeHold({ id: 'hold-rd', target: { type: 'player', id: 'rd' }, reason: 'court order', until: null, placedBy: 'admin', placedAt: 10_000 });
      return { a, b, c, d };
    }

    it('retention sweeps with short durations erase on time: each kind after its time, never what an active sanction, a waiting appeal or a hold keeps; figures unchanged', async () => {
      const { a, b, c, d } = await plant();
      // Decisions are stamped with the store's clock: all of them are before a day from now.
      const LATER = Date.now() + 86_400_000;
      const figures = await store.transparencyFigures({ from: 0, to: LATER, ...FIGURES });

      // Not yet: nothing was decided before the epoch's first millisecond.
      for (const kind of RETENTION_KINDS) expect(await sweep(store, kind, 1), kind).toMatchObject({ examined: 0, erased: 0 });

      // A dry run answers what the sweep will do and changes nothing.
      const dry = await sweep(store, 'directoryNames', LATER, { dryRun: true });
      expect((await store.getReport('rb-1'))!.user.name).toBe('Namerb');

      // directoryNames: the names rb's and rc's reports copied; ra's case has an active ban, rd's a hold.
      const names = await sweep(store, 'directoryNames', LATER, { limit: 1 });
      expect({ ...dry, steps: 0, erasedIds: [] }).toEqual({ ...names, steps: 0, erasedIds: [] });
      expect(names).toMatchObject({ examined: 4, erased: 2, kept: { active_sanction: 1, legal_hold: 1 } });
      expect(new Set(names.erasedIds)).toEqual(new Set([b.id, 'rb-1', 'rb-2', 'rb-3', c.id, 'rc-1']));
      expect((await store.getReport('rb-2'))!.user).toEqual({ name: ERASED_TEXT, displayName: ERASED_TEXT, avatar: null });
      expect((await store.getReport('rb-2'))!.answers[1]!.answer).toBe('words of rb-2');
      expect((await store.getReport('ra-1'))!.user.name).toBe('Namera');
      expect((await store.getReport('rd-1'))!.user.name).toBe('Namerd');
      // The next sweep starts where this one stopped: only what was kept is examined again.
      expect(await sweep(store, 'directoryNames', LATER)).toMatchObject({ examined: 2, erased: 0, kept: { active_sanction: 1, legal_hold: 1 } });

      // reportText: free text and links go, the category label stays; rc's ended sanction loses its reason.
      expect(await sweep(store, 'reportText', LATER)).toMatchObject({ examined: 4, erased: 2 });
      expect((await store.getReport('rc-1'))!.answers).toEqual([
        { questionId: 'category', answer: 'cheating' },
        { questionId: 'details', answer: ERASED_TEXT },
      ]);
      expect((await store.getReport('rb-3'))!.evidence).toEqual([{ url: ERASED_TEXT, type: 'url', createEvidence: true }]);
      expect((await store.sanctionsOfUser('rc'))[0]).toMatchObject({ reason: null, liftReason: null, state: 'lifted' });
      expect((await store.getReport('ra-1'))!.answers[1]!.answer).toBe('words of ra-1');
      expect((await store.sanctionsOfUser('ra'))[0]!.reason).toBe('seen cheating by ra');

      // reporterIdentity: one pseudonym per reporter and case (the case still counts two reporters), outcomes follow.
      expect(await sweep(store, 'reporterIdentity', LATER)).toMatchObject({ examined: 4, erased: 2 });
      const [b1, b2, b3] = await Promise.all(['rb-1', 'rb-2', 'rb-3'].map(async (id) => (await store.getReport(id))!));
      expect(b1!.reporterId).toMatch(/^erased-/);
      expect(b3!.reporterId).toBe(b1!.reporterId);
      expect(b2!.reporterId).not.toBe(b1!.reporterId);
      expect(await store.caseReporters(b.id)).toHaveLength(2);
      // rep-1's outcome of ra's case stays: its ban keeps that case.
      expect((await store.reporterOutcomes({ platform: 'gameplatform', id: 'rep-1' }, 0, 10)).map((o) => o.reportId)).toEqual(['ra-1']);
      expect((await store.reporterOutcomes({ platform: 'gameplatform', id: b1!.reporterId }, 0, 10)).map((o) => o.reportId).sort()).toEqual(['rb-1', 'rb-3']);
      expect((await store.getReport('ra-1'))!.reporterId).toBe('rep-1');

      // caseMessages: the erased cases' chat messages, for the caller to rewrite.
      const messages = await sweep(store, 'caseMessages', LATER);
      expect(messages.caseMessages).toEqual([{ caseId: b.id, channel: 'reports', messageId: 'msg-b', updatedAt: 3_000, state: 'dismissed', reports: 3 }]);

      // dismissedCases: rb's case entire, its player's id included; rd's is held.
      const dismissed = await sweep(store, 'dismissedCases', LATER);
      expect(dismissed).toMatchObject({ examined: 2, erased: 1, kept: { legal_hold: 1 }, evidenceItems: 1, unheldBlobs: [SHA] });
      const gone = (await store.getCase(b.id))!;
      expect(gone.userId).toMatch(/^erased-/);
      expect(gone.state).toBe('dismissed');
      expect((await store.getReport('rb-1'))!.userId).toBe(gone.userId);
      expect(await store.listReportsByUser('rb', { offset: 0, limit: 10 })).toEqual({ total: 0, reports: [] });
      expect((await store.evidenceOfReports(['rb-1']))[0]).toMatchObject({ state: 'deleted', detail: null });
      expect(JSON.stringify(await store.caseHistory(b.id))).not.toContain('"rb"');
      expect((await store.getReport('rd-1'))!.userId).toBe('rd');

      // appealStatements: rc's decided appeal; ra's still waits for its decision.
      expect(await sweep(store, 'appealStatements', LATER)).toMatchObject({ examined: 1, erased: 1, erasedIds: ['appeal-c'] });
      expect(await store.getAppeal('appeal-c')).toMatchObject({ statement: ERASED_TEXT, decisionReason: ERASED_TEXT });
      expect((await store.getAppeal('appeal-a'))!.statement).toBe('appeal words of ra');

      // The ban is enforced, the figures are what they were.
      expect(await store.isBanned('ra')).toBe(true);
      expect(await store.transparencyFigures({ from: 0, to: LATER, ...FIGURES })).toEqual(figures);

      // auditEntries: the hold's entry in the privacy audit.
      expect(await sweep(store, 'auditEntries', LATER)).toMatchObject({ examined: 1, erased: 1 });
      expect(await store.privacyAudit(0, 10)).toEqual([]);

      // Again: nothing more to erase; what is kept is examined again.
      for (const kind of RETENTION_KINDS) expect((await sweep(store, kind, LATER)).erased, kind).toBe(0);

      // The hold released, rd's case goes at the next sweep; ra's ban lifted, its appeal still waits.
      await store.releaseHold({ id: 'hold-rd', by: 'admin', reason: null, at: 20_000 });
      await store.liftSanction({ sanctionId: (await store.sanctionsOfUser('ra'))[0]!.id, at: 21_000, moderatorId: 'mod-1', reason: null, sourceId: 'lift-a', effects: [] });
      expect(await sweep(store, 'directoryNames', LATER)).toMatchObject({ examined: 2, erased: 1, kept: { open_appeal: 1 } });
      expect(await sweep(store, 'dismissedCases', LATER)).toMatchObject({ examined: 1, erased: 1 });
      expect((await store.getCase(d.id))!.userId).toMatch(/^erased-/);
      expect((await store.getReport('ra-1'))!.user.name).toBe('Namera');
      void a;
    });

    it('the privacy audit: entries older than the retention go, oldest first, the rest stay', async () => {
      for (const at of [1_000, 2_000, 3_000, 30_000]) await store.recordPrivacyAudit({ action: 'export', requestId: `req-${at}`, subjectRef: 'ref', actor: 'admin', at, detail: {} });
      expect(await sweep(store, 'auditEntries', 2_500, { dryRun: true })).toMatchObject({ examined: 2, erased: 2 });
      expect(await store.privacyAudit(0, 10)).toHaveLength(4);
      expect(await sweep(store, 'auditEntries', 2_500, { limit: 1 })).toMatchObject({ examined: 2, erased: 2 });
      expect((await store.privacyAudit(0, 10)).map((e) => e.requestId)).toEqual(['req-3000', 'req-30000']);
      expect(await sweep(store, 'auditEntries', 10_000)).toMatchObject({ examined: 1, erased: 1 });
      expect((await store.privacyAudit(0, 10)).map((e) => e.requestId)).toEqual(['req-30000']);
    });

    it("an erased player's id becomes one pseudonym on the rows from before the erasure once no sanction needs it: not while one is active, nor within the ladder's lookback, nor under a hold", async () => {
      await store.saveReports([personal('ep-1', 'ep', 1_000, 'rep-7')]);
      await store.transitionCase(move(await caseOf('ep-1'), 'approved', { ban: 'set', sanction: { reason: 'r', expiresAt: 5_500, kind: 'ban', blocksLogin: true, category: 'cheating' } }));
      await store.saveReports([personal('ep-2', 'ep', 2_000, 'rep-7')]);
      await store.transitionCase(move(await caseOf('ep-2'), 'dismissed'));
      const ban = (await store.sanctionsOfUser('ep'))[0]!;
      await store.saveReports([personal('eq-1', 'eq', 1_000, 'rep-8')]);
      const held = (await store.transitionCase(move(await caseOf('eq-1'), 'dismissed')))!;
      await store.placeHold({ id: 'hold-eq', target: { type: 'case', id: held.id }, reason: 'court order', until: null, placedBy: 'admin', placedAt: 10_000 });
      await erase(store, { kind: 'player', userId: 'ep' }, 50_000);
      await erase(store, { kind: 'player', userId: 'eq' }, 50_000);
      // A report after the erasure: other data, which keeps the player's id.
      await store.saveReports([personal('ep-3', 'ep', 60_000, 'rep-7')]);
      const later = (await store.transitionCase(move(await caseOf('ep-3'), 'dismissed')))!;

      // The ban is active: enforcement asks by the id.
      expect(await sweep(store, 'erasedPlayers', 0, { at: 70_000 })).toMatchObject({ examined: 2, erased: 0, kept: { active_sanction: 1, legal_hold: 1 } });
      expect(await store.isBanned('ep')).toBe(true);
      // Expired, it still counts for the ladder while it started within the lookback.
      await store.expireSanction({ sanctionId: ban.id, at: 6_000, sourceId: 'expire-ep', effects: [] });
      expect(await sweep(store, 'erasedPlayers', 5_000, { at: 70_000, dryRun: true })).toMatchObject({ examined: 2, erased: 0, kept: { ladder_lookback: 1, legal_hold: 1 } });
      const out = await sweep(store, 'erasedPlayers', 5_001, { at: 70_000, limit: 1 });
      expect(out).toMatchObject({ examined: 2, erased: 1, erasedIds: ['ep'], kept: { legal_hold: 1 } });

      const [first, second] = [await caseOf('ep-1'), await caseOf('ep-2')];
      expect(first.userId).toMatch(/^erased-/);
      expect(second.userId).toBe(first.userId);
      expect((await store.getReport('ep-2'))!.userId).toBe(first.userId);
      expect((await store.getSanction(ban.id))!).toMatchObject({ userId: first.userId, state: 'expired' });
      expect((await store.sanctionEventsOf(ban.id)).every((e) => e.userId === first.userId)).toBe(true);
      // What came after the erasure keeps the id; the list by player shows only it.
      expect((await store.getCase(later.id))!.userId).toBe('ep');
      expect((await store.listReportsByUser('ep', { offset: 0, limit: 10 })).reports.map((r) => r.id)).toEqual(['ep-3']);
      expect(await store.sanctionsOfUser('ep')).toEqual([]);
      // Done: the next sweep examines only the held one; released, it goes too.
      expect(await sweep(store, 'erasedPlayers', 5_001, { at: 70_000 })).toMatchObject({ examined: 1, erased: 0 });
      await store.releaseHold({ id: 'hold-eq', by: 'admin', reason: null, at: 71_000 });
      expect(await sweep(store, 'erasedPlayers', 5_001, { at: 72_000 })).toMatchObject({ examined: 1, erased: 1 });
      expect((await store.getCase(held.id))!.userId).toMatch(/^erased-/);
      expect(await sweep(store, 'erasedPlayers', 5_001, { at: 72_000 })).toMatchObject({ examined: 0 });
    });

    it('a case undone after a sweep kept it leaves the waiting list; decided again, its time counts from the new decision', async () => {
      await store.saveReports([personal('ru-1', 'ru', 1_000, 'rep-9')]);
      await store.transitionCase(move(await caseOf('ru-1'), 'approved', { ban: 'set', sanction: { reason: 'r', expiresAt: null } }));
      const LATER = Date.now() + 86_400_000;
      expect(await sweep(store, 'reportText', LATER)).toMatchObject({ examined: 1, kept: { active_sanction: 1 } });
      const undone = (await store.transitionCase(move(await caseOf('ru-1'), 'open', { ban: 'lift' })))!;
      // Open again: neither due nor kept.
      expect(await sweep(store, 'reportText', LATER)).toMatchObject({ examined: 0, erased: 0 });
      const decided = (await store.transitionCase(move(undone, 'dismissed')))!;
      expect(await sweep(store, 'reportText', decided.updatedAt)).toMatchObject({ examined: 0 });
      expect(await sweep(store, 'reportText', LATER)).toMatchObject({ examined: 1, erased: 1 });
      expect((await store.getReport('ru-1'))!.answers[1]!.answer).toBe(ERASED_TEXT);
    });
  });
}
