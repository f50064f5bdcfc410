import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ERASED_TEXT, holdTargetRef, privacySubjectRef } from '../index.js';
import type { AnswerKeep, CaseRecord, ErasureStep, ErasureStepOutcome, EvidenceItemRecord, PrivacySubject, SanctionRecord, Store } from '../index.js';
import { allExpiredEvidence, caseMover, report } from './fixtures.contract.js';
import { statementFixture } from './statements.contract.js';

const KEEP: AnswerKeep = { categoryQuestionId: 'category', categories: ['cheating', 'harassment'] };
const SHA_A = 'a'.repeat(64);
const SHA_B = 'b'.repeat(64);
const FIGURES = { categoryQuestionId: 'category', categories: KEEP.categories, defaultCategory: 'other' };

const captured = (reportId: string, caseId: string, index: number, sha256: string): EvidenceItemRecord => ({
  reportId,
  index,
  caseId,
  state: 'captured',
  failure: null,
  detail: 'fetched from clips.example',
  sha256,
  size: 10,
  contentType: 'image/png',
  capturedAt: 2_000,
  at: 2_000,
});

/** A report about `userId` with free text, a category, a name and an evidence link worth erasing. */
const personal = (id: string, userId: string, at: number, reporterId = 'rep-1') =>
  report(id, userId, at, {
    reporterId,
    answers: [
      { questionId: 'category', answer: 'Cheating' },
      { questionId: 'details', answer: `secret text of ${id}` },
    ],
    evidence: [{ url: `https://clips.example/${id}.png`, type: 'url', createEvidence: true }],
    user: { name: `Griefer${userId}`, displayName: `The Griefer ${userId}`, avatar: 'https://avatars.example/1.png' },
  });

/** Runs an erasure to its end, `limit` reports per step, and sums the steps. */
async function eraseAll(store: Store, subject: PrivacySubject, options: Partial<ErasureStep> = {}): Promise<ErasureStepOutcome & { steps: number }> {
  const sum: ErasureStepOutcome & { steps: number } = { reports: 0, evidenceItems: 0, unheldBlobs: [], appeals: 0, sanctions: 0, user: false, reporterStats: false, outcomes: 0, directMessages: 0, openCaseUsers: [], kept: [], cursor: null, steps: 0 };
  for (let cursor: string | null = null; ; ) {
    const out = await store.eraseSubject({ subject, cursor, limit: 100, keep: KEEP, pseudonym: 'pseudo-1', at: 50_000, dryRun: false, ...options });
    sum.steps += 1;
    sum.reports += out.reports;
    sum.evidenceItems += out.evidenceItems;
    sum.unheldBlobs.push(...out.unheldBlobs);
    sum.appeals += out.appeals;
    sum.sanctions += out.sanctions;
    sum.user ||= out.user;
    sum.reporterStats ||= out.reporterStats;
    sum.outcomes += out.outcomes;
    sum.directMessages += out.directMessages;
    sum.openCaseUsers.push(...out.openCaseUsers);
    sum.kept.push(...out.kept);
    if (out.cursor === null) return sum;
    cursor = out.cursor;
  }
}

/** The privacy part of the storage contract (docs/privacy.md); describeStoreContract runs it for every adapter. */
export function describePrivacyContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Store contract (privacy): ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });
    const move = caseMover('privacy');

    /**
     * A player with two cases: the first approved with an active ban (reason, statement, appeal,
     * captured evidence), the second dismissed with captured evidence; a directory record.
     */
    async function plantPlayer(userId: string): Promise<{ first: CaseRecord; second: CaseRecord; sanction: SanctionRecord }> {
      await store.addUser({ id: userId, name: `Griefer${userId}`, displayName: `The Griefer ${userId}`, avatar: null });
      const [a] = await store.saveReports([personal(`${userId}-r1`, userId, 1_000), personal(`${userId}-r2`, userId, 1_100, 'rep-2')]);
      let first = (await store.getCase(a!.caseId))!;
      await store.recordEvidence(captured(`${userId}-r1`, first.id, 0, SHA_A));
      first = (await store.transitionCase(
        move(first, 'approved', {
          ban: 'set',
          sanction: { reason: `cheated in match of ${userId}`, expiresAt: null, kind: 'ban', blocksLogin: true, category: 'cheating', statement: { ...statementFixture({ from: 5_000 }), facts: { ...statementFixture({ from: 5_000 }).facts, reason: `cheated in match of ${userId}` } } },
        }),
      ))!;
      const sanction = (await store.sanctionsOfUser(userId))[0]!;
      await store.createAppeal({
        id: `${userId}-appeal`,
        sanctionId: sanction.id,
        userId,
        caseId: first.id,
        category: 'cheating',
        sanctionModeratorId: 'mod-1',
        automated: false,
        statement: `appeal statement of ${userId}`,
        at: 6_000,
        effects: [],
      });
      const [b] = await store.saveReports([personal(`${userId}-r3`, userId, 7_000)]);
      let second = (await store.getCase(b!.caseId))!;
      await store.recordEvidence(captured(`${userId}-r3`, second.id, 0, SHA_B));
      second = (await store.transitionCase(move(second, 'dismissed')))!;
      return { first, second, sanction };
    }

    it('places, finds, releases holds, each in the audit trail by a hash of its target', async () => {
      const hold = { id: 'h1', target: { type: 'case' as const, id: 'c1' }, reason: 'police request 12', until: null, placedBy: 'admin', placedAt: 1_000 };
      const placed = await store.placeHold(hold);
      expect(placed.created).toBe(true);
      expect(placed.hold).toEqual({ ...hold, releasedAt: null, releasedBy: null, releaseReason: null });
      expect(await store.placeHold({ ...hold, reason: 'again' })).toEqual({ hold: placed.hold, created: false });
      await store.placeHold({ id: 'h2', target: { type: 'player', id: 'u9' }, reason: 'litigation', until: 3_000, placedBy: 'admin', placedAt: 1_500 });
      expect((await store.holdsOn([{ type: 'case', id: 'c1' }, { type: 'player', id: 'u9' }], 2_000)).map((h) => h.id)).toEqual(['h1', 'h2']);
      expect((await store.holdsOn([{ type: 'player', id: 'u9' }], 3_000)).map((h) => h.id)).toEqual([]);
      const released = await store.releaseHold({ id: 'h1', by: 'admin', reason: 'case closed', at: 4_000 });
      expect(released).toMatchObject({ id: 'h1', releasedAt: 4_000, releasedBy: 'admin', releaseReason: 'case closed' });
      expect(await store.releaseHold({ id: 'h1', by: 'admin', reason: null, at: 4_500 })).toBeNull();
      expect(await store.releaseHold({ id: 'nope', by: 'admin', reason: null, at: 4_500 })).toBeNull();
      expect(await store.holdsOn([{ type: 'case', id: 'c1' }], 5_000)).toEqual([]);
      expect(await store.holdsOn([{ type: 'case', id: 'c1' }], null)).toHaveLength(1);
      const audit = await store.privacyAudit(0, 10);
      expect(audit.map((e) => [e.action, e.requestId, e.subjectRef])).toEqual([
        ['hold', 'h1', holdTargetRef({ type: 'case', id: 'c1' })],
        ['hold', 'h2', holdTargetRef({ type: 'player', id: 'u9' })],
        ['release', 'h1', holdTargetRef({ type: 'case', id: 'c1' })],
      ]);
      expect(JSON.stringify(audit)).not.toContain('u9');
      expect(await store.privacyAudit(audit[1]!.seq, 10)).toEqual([audit[2]]);
    });

    it('records request audit entries in order', async () => {
      const ref = privacySubjectRef({ kind: 'player', userId: 'u1' });
      const a = await store.recordPrivacyAudit({ action: 'export', requestId: 'req-1', subjectRef: ref, actor: 'admin', at: 1_000, detail: { reports: 3 } });
      const b = await store.recordPrivacyAudit({ action: 'erase', requestId: 'req-2', subjectRef: ref, actor: 'admin', at: 2_000, detail: { reports: 3, dryRun: false } });
      expect(b.seq).toBeGreaterThan(a.seq);
      expect(await store.privacyAudit(0, 10)).toEqual([a, b]);
      expect(await store.privacyAudit(0, 0)).toEqual([]);
    });

    it('pages a subject\'s reports: a player\'s, a reporter\'s', async () => {
      await store.saveReports([personal('p1', 'pu1', 1_000, 'pr'), personal('p2', 'pu1', 2_000, 'pr'), personal('p3', 'pu2', 3_000, 'pr'), personal('p4', 'pu1', 4_000, 'other')]);
      const all = async (subject: PrivacySubject) => {
        const ids: string[] = [];
        for (let cursor: string | null = null; ; ) {
          const page = await store.subjectReports(subject, cursor, 2);
          ids.push(...page.reports.map((r) => r.id));
          if (page.cursor === null) return ids.sort();
          cursor = page.cursor;
        }
      };
      expect(await all({ kind: 'player', userId: 'pu1' })).toEqual(['p1', 'p2', 'p4']);
      expect(await all({ kind: 'reporter', platform: 'gameplatform', reporterId: 'pr' })).toEqual(['p1', 'p2', 'p3']);
      expect(await all({ kind: 'reporter', platform: 'otherplatform', reporterId: 'pr' })).toEqual([]);
    });

    it('erases a player: names, free text, evidence, appeal statement and sanction reason go; the ban stays enforceable; figures stay', async () => {
      const { first, second, sanction } = await plantPlayer('u1');
      const before = await store.transparencyFigures({ from: 0, to: 100_000, ...FIGURES });
      const records = await store.subjectRecords({ kind: 'player', userId: 'u1' });
      expect(records.user).toMatchObject({ id: 'u1', name: 'Griefer' + 'u1' });
      expect(records.cases.map((c) => c.case.id).sort()).toEqual([first.id, second.id].sort());
      expect(records.cases.find((c) => c.case.id === first.id)!.history.map((e) => e.action)).toEqual(['approve']);
      expect(records.sanctions.map((s) => s.id)).toEqual([sanction.id]);
      expect(records.appeals.map((a) => a.statement)).toEqual(['appeal statement of u1']);

      const dry = await eraseAll(store, { kind: 'player', userId: 'u1' }, { dryRun: true });
      expect(await store.getReport('u1-r1')).toMatchObject({ user: { name: 'Griefer' + 'u1' } });
      const out = await eraseAll(store, { kind: 'player', userId: 'u1' }, { limit: 2 });
      expect(out.steps).toBe(2);
      expect({ ...dry, steps: 0 }).toEqual({ ...out, steps: 0 });
      expect(out).toMatchObject({ reports: 3, evidenceItems: 2, appeals: 1, sanctions: 1, user: true });
      expect(out.unheldBlobs.sort()).toEqual([SHA_A, SHA_B]);
      expect(out.kept).toEqual([{ kind: 'sanction', id: sanction.id, reason: 'active_sanction' }]);

      const r1 = (await store.getReport('u1-r1'))!;
      expect(r1.user).toEqual({ name: ERASED_TEXT, displayName: ERASED_TEXT, avatar: null });
      expect(r1.answers).toEqual([
        { questionId: 'category', answer: 'cheating' },
        { questionId: 'details', answer: ERASED_TEXT },
      ]);
      expect(r1.evidence).toEqual([{ url: ERASED_TEXT, type: 'url', createEvidence: true }]);
      expect(r1.reporterId).toBe('rep-1');
      expect(await store.getUser('u1')).toBeNull();
      expect((await store.evidenceOfReports(['u1-r1', 'u1-r3'])).map((i) => [i.state, i.detail])).toEqual([
        ['deleted', null],
        ['deleted', null],
      ]);
      expect((await store.evidenceAudit('u1-r1')).every((e) => e.detail === null || e.detail === 'erased on request')).toBe(true);
      const s = (await store.getSanction(sanction.id))!;
      expect(s).toMatchObject({ userId: 'u1', state: 'active', kind: 'ban', blocksLogin: true, reason: null });
      expect(s.statement!.facts.reason).toBeNull();
      expect(JSON.stringify(s)).not.toContain('cheated in match');
      expect(await store.isBanned('u1')).toBe(true);
      expect((await store.getAppeal('u1-appeal'))!.statement).toBe(ERASED_TEXT);
      expect(await store.transparencyFigures({ from: 0, to: 100_000, ...FIGURES })).toEqual(before);

      // Again: nothing more to erase.
      expect(await eraseAll(store, { kind: 'player', userId: 'u1' })).toMatchObject({ reports: 0, evidenceItems: 0, unheldBlobs: [], appeals: 0, sanctions: 0, user: false });
    });

    it('a hold keeps what it holds, and says so', async () => {
      const { first, second, sanction } = await plantPlayer('u2');
      await store.placeHold({ id: 'hold-case', target: { type: 'case', id: second.id }, reason: 'evidence of a crime', until: null, placedBy: 'admin', placedAt: 10_000 });
      await store.placeHold({ id: 'hold-sanction', target: { type: 'sanction', id: sanction.id }, reason: 'litigation', until: null, placedBy: 'admin', placedAt: 10_000 });
      const out = await eraseAll(store, { kind: 'player', userId: 'u2' });
      expect(out).toMatchObject({ reports: 0, evidenceItems: 0, appeals: 0, sanctions: 0, user: true });
      expect(out.kept).toEqual(
        expect.arrayContaining([
          { kind: 'report', id: 'u2-r1', reason: 'legal_hold', holdId: 'hold-sanction' },
          { kind: 'report', id: 'u2-r3', reason: 'legal_hold', holdId: 'hold-case' },
          { kind: 'sanction', id: sanction.id, reason: 'legal_hold', holdId: 'hold-sanction' },
          { kind: 'appeal', id: 'u2-appeal', reason: 'legal_hold', holdId: 'hold-sanction' },
        ]),
      );
      expect((await store.getReport('u2-r3'))!.answers[1]!.answer).toBe('secret text of u2-r3');
      expect((await store.getAppeal('u2-appeal'))!.statement).toBe('appeal statement of u2');
      expect((await store.evidenceOfReports(['u2-r1']))[0]!.state).toBe('captured');
      void first;

      // Released, the next erasure takes them.
      await store.releaseHold({ id: 'hold-case', by: 'admin', reason: null, at: 20_000 });
      await store.releaseHold({ id: 'hold-sanction', by: 'admin', reason: null, at: 20_000 });
      expect(await eraseAll(store, { kind: 'player', userId: 'u2' })).toMatchObject({ reports: 3, evidenceItems: 2, appeals: 1, sanctions: 1 });
    });

    it('a hold on the player keeps everything of theirs', async () => {
      await plantPlayer('u3');
      await store.placeHold({ id: 'hold-player', target: { type: 'player', id: 'u3' }, reason: 'court order', until: 90_000, placedBy: 'admin', placedAt: 10_000 });
      const out = await eraseAll(store, { kind: 'player', userId: 'u3' });
      expect(out).toMatchObject({ reports: 0, evidenceItems: 0, appeals: 0, sanctions: 0, user: false });
      expect(out.kept.filter((k) => k.holdId === 'hold-player').map((k) => k.kind).sort()).toEqual(['appeal', 'report', 'report', 'report', 'sanction', 'user']);
      // Past its end it holds nothing.
      expect(await eraseAll(store, { kind: 'player', userId: 'u3' }, { at: 95_000 })).toMatchObject({ reports: 3, user: true });
    });

    it('erases a reporter: their id becomes the pseudonym, their text goes, their credibility goes', async () => {
      await store.saveReports([personal('rr1', 'target-1', 1_000, 'snitch'), personal('rr2', 'target-2', 1_100, 'snitch'), personal('rr3', 'target-1', 1_200, 'bystander')]);
      const decided = (await store.transitionCase(move((await store.getCase((await store.getReport('rr2'))!.caseId))!, 'dismissed')))!;
      void decided;
      const subject: PrivacySubject = { kind: 'reporter', platform: 'gameplatform', reporterId: 'snitch' };
      const records = await store.subjectRecords(subject);
      expect(records.reporterStats).toMatchObject({ id: 'snitch', dismissed: 1 });
      expect(records.outcomes.map((o) => o.reportId)).toEqual(['rr2']);
      const out = await eraseAll(store, subject);
      expect(out).toMatchObject({ reports: 2, reporterStats: true, outcomes: 1 });
      expect(out.openCaseUsers).toEqual(['target-1']);
      expect(await store.getReport('rr1')).toMatchObject({ reporterId: 'pseudo-1', user: { name: 'Griefertarget-1' } });
      expect((await store.getReport('rr1'))!.answers[1]!.answer).toBe(ERASED_TEXT);
      expect(await store.getReport('rr3')).toMatchObject({ reporterId: 'bystander' });
      expect((await store.subjectReports(subject, null, 10)).reports).toEqual([]);
      expect(await store.reporterStats([{ platform: 'gameplatform', id: 'snitch' }])).toEqual([]);
      expect(await store.reporterOutcomes({ platform: 'gameplatform', id: 'snitch' }, 0, 10)).toEqual([]);
      expect((await store.reporterOutcomes({ platform: 'gameplatform', id: 'pseudo-1' }, 0, 10)).map((o) => o.reportId)).toEqual(['rr2']);
    });

    it("erases a chat-platform reporter's DMs in the embedded recorder: content erased, recipient the pseudonym; a dry run changes none", async () => {
      await store.recordMessage({ channel: 'dm:chatter', kind: 'reporter.dm', content: 'Your report was reviewed and dismissed: not griefer-1', dedupeKey: 'dm-d1-chatter' });
      await store.recordMessage({ channel: 'dm:chatter-2', kind: 'reporter.dm', content: 'Your report was reviewed.', dedupeKey: 'dm-d1-chatter-2' });
      // Sent through a chat platform's API instead, their deliveries are keyed the same way.
      await store.recordDelivery({ key: 'dm-d2-chatter', externalId: 'm1', deliveredAt: 1 });
      await store.recordDelivery({ key: 'dm-d2-chatter-2', externalId: 'm2', deliveredAt: 1 });
      const subject: PrivacySubject = { kind: 'reporter', platform: 'chatplatform', reporterId: 'chatter' };
      expect(await eraseAll(store, subject, { dryRun: true })).toMatchObject({ directMessages: 1 });
      expect((await store.listMessages(10)).map((m) => m.channel).sort()).toEqual(['dm:chatter', 'dm:chatter-2']);
      expect(await eraseAll(store, subject)).toMatchObject({ directMessages: 1 });
      const after = await store.listMessages(10);
      expect(after.map((m) => [m.channel, m.content]).sort()).toEqual([
        ['dm:chatter-2', 'Your report was reviewed.'],
        ['dm:pseudo-1', ERASED_TEXT],
      ]);
      expect(JSON.stringify(after)).not.toMatch(/chatter"|chatter,|-chatter"/);
      expect(await store.findDelivery('dm-d2-chatter')).toBeNull();
      expect(await store.findDelivery('dm-d2-chatter-2')).toMatchObject({ externalId: 'm2' });
      // The same id on another platform is someone else: their erasure leaves the recorder alone.
      expect(await eraseAll(store, { kind: 'reporter', platform: 'gameplatform', reporterId: 'chatter-2' })).toMatchObject({ directMessages: 0 });
    });

    it('the evidence retention sweep skips held items until the hold ends or is released', async () => {
      // Decisions are stamped with the store's clock: anything decided before a day from now.
      const LATER = Date.now() + 86_400_000;
      const [saved] = await store.saveReports([personal('ev1', 'eu1', 1_000)]);
      const c = (await store.getCase(saved!.caseId))!;
      await store.recordEvidence(captured('ev1', c.id, 0, SHA_A));
      await store.transitionCase(move(c, 'dismissed'));
      expect((await allExpiredEvidence(store, LATER)).map((i) => i.reportId)).toEqual(['ev1']);
      await store.placeHold({ id: 'ev-hold', target: { type: 'player', id: 'eu1' }, reason: 'police', until: 60_000, placedBy: 'admin', placedAt: 10_000 });
      expect(await store.expiredEvidence(LATER, null, 10, 50_000)).toEqual({ items: [], cursor: null });
      expect((await store.expiredEvidence(LATER, null, 10, 60_000)).items.map((i) => i.reportId)).toEqual(['ev1']);
      await store.placeHold({ id: 'ev-hold-case', target: { type: 'case', id: c.id }, reason: 'police', until: null, placedBy: 'admin', placedAt: 10_000 });
      expect((await store.expiredEvidence(LATER, null, 10, 70_000)).items).toEqual([]);
      await store.releaseHold({ id: 'ev-hold-case', by: 'admin', reason: null, at: 71_000 });
      expect((await store.expiredEvidence(LATER, null, 10, 72_000)).items.map((i) => i.reportId)).toEqual(['ev1']);
    });
  });
}
