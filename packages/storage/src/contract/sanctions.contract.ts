import { describe, expect, it } from 'vitest';
import type { CaseRecord, NewEffect, NewSanction, SanctionFilter, SanctionRecord, Transition } from '../index.js';
import type { Store } from '../index.js';
import { report as baseReport } from './fixtures.contract.js';
import { allOpenCases } from '../index.js';
import { recordedEffects } from '../index.js';
import { statementFixture } from './statements.contract.js';

const STATEMENT = statementFixture({ from: 10_000 });

const report = (id: string, userId: string, receivedAt: number) => baseReport(id, userId, receivedAt, { reporterId: `reporter-${id}` });

/**
 * Sanctions, the feed and the effects outbox: part of the Store contract (describeStoreContract
 * calls it for every adapter), using only the Store port.
 */

function step(from: CaseRecord, state: CaseRecord['state'], decisionId: string, extra: Partial<Transition> = {}, at = 5_000): Transition {
  const action = ({ claimed: 'claim', approved: 'approve', dismissed: 'dismiss', open: 'undo' } as const)[state];
  return {
    caseId: from.id,
    expectedVersion: from.version,
    expectedState: from.state,
    next: { state, claimedBy: state === 'claimed' ? 'mod-1' : null },
    event: { decisionId, action, moderatorId: 'mod-1', at, result: { ok: true } },
    ...extra,
  };
}

const effect = (id: string, kind = 'guard'): NewEffect => ({ id, kind, payload: { id } });

export function describeSanctionsContract(store: () => Store): void {
  /** A case of `userId` approved by decision `approvalId`; returns the approved case. */
  async function approvedCase(userId: string, approvalId: string, sanction?: Transition['sanction'], at = 5_000): Promise<CaseRecord> {
    const [saved] = await store().saveReports([report(`r-${approvalId}`, userId, at - 100)]);
    const opened = (await store().getCase(saved!.caseId))!;
    const claimed = (await store().transitionCase(step(opened, 'claimed', `claim-${approvalId}`)))!;
    return (await store().transitionCase(step(claimed, 'approved', approvalId, { ban: 'set', ...(sanction && { sanction }) }, at)))!;
  }

  describe('sanctions', () => {
    it('an approval creates one active sanction owned by its case, with its reason and end', async () => {
      const c = await approvedCase('u1', 'd-approve', { reason: 'aimbot', expiresAt: 9_000 });
      expect(await store().sanctionsOfUser('u1')).toEqual([
        {
          id: 'd-approve',
          userId: 'u1',
          caseId: c.id,
          kind: 'ban',
          blocksLogin: true,
          category: null,
          source: { type: 'case', id: c.id },
          idempotencyKey: null,
          effectiveAt: null,
          ladder: null,
          evidence: [],
          reason: 'aimbot',
          moderatorId: 'mod-1',
          boundModeratorId: null,
          createdAt: 5_000,
          expiresAt: 9_000,
          state: 'active',
          liftedAt: null,
          liftedBy: null,
          liftReason: null,
          statement: null,
        },
      ]);
      expect(await store().getSanction('d-approve')).toMatchObject({ state: 'active' });
      expect(await store().isBanned('u1')).toBe(true);
      expect(await store().sanctionsOfUser('nobody')).toEqual([]);
      expect(await store().getSanction('nothing')).toBeNull();
    });

    it('undoing one approval lifts that case\'s sanction only: the player stays banned by the other', async () => {
      const first = await approvedCase('u1', 'd-1', undefined, 5_000);
      await approvedCase('u1', 'd-2', undefined, 6_000);
      expect((await store().sanctionsOfUser('u1')).map((s) => s.id)).toEqual(['d-2', 'd-1']);

      const reopened = await store().transitionCase(step(first, 'open', 'd-undo', { ban: 'lift' }, 7_000));
      // Reopening a decided case while the user has no open case.
      expect(reopened).toMatchObject({ state: 'open' });
      expect(await store().getSanction('d-1')).toMatchObject({ state: 'lifted', liftedAt: 7_000, liftedBy: 'mod-1' });
      expect(await store().getSanction('d-2')).toMatchObject({ state: 'active' });
      expect(await store().isBanned('u1')).toBe(true);
      expect(await store().bannedUserIds('', 10)).toEqual(['u1']);
    });

    it('lift by hand: once, with who and why; the player is no longer banned when none is active', async () => {
      await approvedCase('u1', 'd-1');
      const lifted = await store().liftSanction({ sanctionId: 'd-1', at: 8_000, moderatorId: 'mod-2', reason: 'appeal', sourceId: 'lift-1', effects: [effect('lift-1:guard')] });
      expect(lifted).toMatchObject({ id: 'd-1', state: 'lifted', liftedAt: 8_000, liftedBy: 'mod-2', liftReason: 'appeal' });
      expect(await store().isBanned('u1')).toBe(false);
      expect(await store().bannedUserIds('', 10)).toEqual([]);
      expect(await store().liftSanction({ sanctionId: 'd-1', at: 9_000, moderatorId: 'mod-2', sourceId: 'lift-2', effects: [effect('lift-2:guard')] })).toBeNull();
      expect(await store().liftSanction({ sanctionId: 'unknown', at: 9_000, moderatorId: 'mod-2', sourceId: 'lift-3', effects: [] })).toBeNull();
      expect((await store().pendingEffects(Number.MAX_SAFE_INTEGER, 10)).map((e) => e.id)).toEqual(['lift-1:guard']);
    });

    it('expiry: only an active sanction whose end has passed; due lists them soonest first', async () => {
      await approvedCase('u1', 'd-perm');
      await approvedCase('u2', 'd-late', { reason: null, expiresAt: 20_000 });
      await approvedCase('u3', 'd-soon', { reason: null, expiresAt: 10_000 });
      expect(await store().dueSanctions(9_999, 10)).toEqual([]);
      expect((await store().dueSanctions(30_000, 10)).map((s) => s.id)).toEqual(['d-soon', 'd-late']);

      const end = (sanctionId: string, at: number) => store().expireSanction({ sanctionId, at, sourceId: `exp-${sanctionId}`, effects: [effect(`exp-${sanctionId}:guard`)] });
      expect(await end('d-late', 19_999)).toBeNull();
      expect(await end('d-perm', 99_999)).toBeNull();
      expect(await end('d-soon', 10_000)).toMatchObject({ state: 'expired', liftedAt: null, liftedBy: null });
      expect(await end('d-soon', 10_001)).toBeNull();
      expect(await store().isBanned('u3')).toBe(false);
      expect(await store().isBanned('u2')).toBe(true);
      expect((await store().dueSanctions(30_000, 10)).map((s) => s.id)).toEqual(['d-late']);
    });
  });

  describe('kinds', () => {
    it('an approval stores the kind, its snapshotted blocksLogin, category, source and ladder note; only a login-blocking one bans', async () => {
      const ladder = { offences: 1, proposed: { kind: 'chat', durationMs: 86_400_000 }, overridden: true };
      const c = await approvedCase('u1', 'd-chat', { reason: null, expiresAt: null, kind: 'chat', blocksLogin: false, category: 'harassment', source: { type: 'rule', id: 'r1' }, ladder });
      expect(await store().getSanction('d-chat')).toMatchObject({ caseId: c.id, kind: 'chat', blocksLogin: false, category: 'harassment', source: { type: 'rule', id: 'r1' }, ladder, state: 'active' });
      expect(await store().isBanned('u1')).toBe(false);
      expect(await store().bannedUserIds('', 100)).toEqual([]);
      expect((await store().sanctionFeed(0, 10)).map((e) => [e.sanctionId, e.kind])).toEqual([['d-chat', 'chat']]);
      await approvedCase('u1', 'd-ban', { reason: null, expiresAt: null, kind: 'ban', blocksLogin: true, category: 'cheating' });
      expect(await store().isBanned('u1')).toBe(true);
      expect(await store().bannedUserIds('', 100)).toEqual(['u1']);
    });

    it("a player's summaries are their sanctions, in the same order, with the summary's fields only", async () => {
      const first = await approvedCase('u1', 'd-1', { reason: 'spam', expiresAt: 90_000, kind: 'chat', blocksLogin: false, category: 'harassment' }, 5_000);
      await approvedCase('u1', 'd-2', undefined, 6_000);
      await store().transitionCase(step(first, 'open', 'd-undo', { ban: 'lift' }, 7_000));
      const pick = ({ id, caseId, kind, blocksLogin, category, state, createdAt, effectiveAt, expiresAt }: SanctionRecord) => ({ id, caseId, kind, blocksLogin, category, state, createdAt, effectiveAt, expiresAt });
      const full = await store().sanctionsOfUser('u1');
      expect(full.map((s) => [s.id, s.state])).toEqual([['d-2', 'active'], ['d-1', 'lifted']]);
      expect(await store().sanctionSummariesOfUser('u1')).toEqual(full.map(pick));
      expect(await store().sanctionSummariesOfUser('nobody')).toEqual([]);
    });
  });

  describe("trusted systems' sanctions", () => {
    const item = (key: string, userId: string, extra: Partial<NewSanction> = {}): NewSanction => ({
      id: `s-${key}`,
      userId,
      kind: 'ban',
      blocksLogin: true,
      category: 'cheating',
      source: { type: 'anticheat', id: 'det-1' },
      idempotencyKey: key,
      evidence: [{ url: `https://ac.example/${key}`, type: 'url' }],
      reason: 'cheat detected',
      moderatorId: 'key-ac',
      expiresAt: null,
      statement: STATEMENT,
      effects: [effect(`s-${key}:0-guard`)],
      ...extra,
    });

    it("a player's summaries narrowed by category, case and state, and their tally by state, agree with the whole list", async () => {
      const chat = await approvedCase('u1', 'd-chat', { reason: null, expiresAt: null, kind: 'chat', blocksLogin: false, category: 'harassment' }, 5_000);
      const lifted = await approvedCase('u1', 'd-lifted', { reason: null, expiresAt: null, kind: 'ban', blocksLogin: true, category: 'cheating' }, 6_000);
      await store().transitionCase(step(lifted, 'open', 'd-undo', { ban: 'lift' }, 7_000));
      await store().createSanctions({ items: [item('now', 'u1')], at: 8_000, effectiveAt: null, sourceId: 'b1' });
      await store().createSanctions({ items: [item('wave', 'u1')], at: 9_000, effectiveAt: 50_000, sourceId: 'wave' });
      const ids = async (filter: SanctionFilter) => (await store().sanctionSummariesOfUser('u1', filter)).map((s) => s.id);
      expect(await ids({ states: ['scheduled', 'active', 'expired', 'lifted'] })).toEqual(['s-wave', 's-now', 'd-lifted', 'd-chat']);
      expect(await ids({ states: ['scheduled', 'lifted'], category: 'cheating' })).toEqual(['s-wave', 'd-lifted']);
      expect(await ids({ category: 'cheating', states: ['active', 'expired'] })).toEqual(['s-now']);
      expect(await ids({ caseId: chat.id, states: ['active'] })).toEqual(['d-chat']);
      expect(await ids({ caseId: lifted.id, states: ['active'] })).toEqual([]);
      expect(await ids({ states: [] })).toEqual([]);
      expect(await store().sanctionTallyOfUser('u1')).toEqual({ active: 2, ended: 1, banning: 1 });
      expect(await store().sanctionTallyOfUser('nobody')).toEqual({ active: 0, ended: 0, banning: 0 });
      await store().liftSanction({ sanctionId: 's-now', at: 10_000, moderatorId: 'm1', reason: null, sourceId: 's-now', effects: [] });
      expect(await store().sanctionTallyOfUser('u1')).toEqual({ active: 1, ended: 2, banning: 0 });
    });

    it('a batch stores each new key once, with no case, and answers every item in order; a known key answers its sanction', async () => {
      const first = await store().createSanctions({ items: [item('k1', 'u1'), item('k2', 'u2', { kind: 'chat', blocksLogin: false, expiresAt: 90_000 })], at: 10_000, effectiveAt: null, sourceId: 'b1' });
      expect(first.map((r) => [r.sanction.id, r.created])).toEqual([['s-k1', true], ['s-k2', true]]);
      expect(first[0]!.sanction).toEqual({
        id: 's-k1',
        userId: 'u1',
        caseId: null,
        kind: 'ban',
        blocksLogin: true,
        category: 'cheating',
        source: { type: 'anticheat', id: 'det-1' },
        idempotencyKey: 'k1',
        effectiveAt: null,
        ladder: null,
        evidence: [{ url: 'https://ac.example/k1', type: 'url' }],
        reason: 'cheat detected',
        moderatorId: 'key-ac',
        boundModeratorId: null,
        createdAt: 10_000,
        expiresAt: null,
        state: 'active',
        liftedAt: null,
        liftedBy: null,
        liftReason: null,
        statement: STATEMENT,
      });
      // k1 again (another id offered), k3 new, k3 again in the same batch.
      const again = await store().createSanctions({ items: [item('k1', 'u1', { id: 's-other' }), item('k3', 'u3'), item('k3', 'u3', { id: 's-k3b' })], at: 11_000, effectiveAt: null, sourceId: 'b2' });
      expect(again.map((r) => [r.sanction.id, r.created])).toEqual([['s-k1', false], ['s-k3', true], ['s-k3', false]]);
      expect(await store().getSanction('s-other')).toBeNull();
      expect(await store().isBanned('u1')).toBe(true);
      expect(await store().isBanned('u2')).toBe(false);
      const feed = await store().sanctionFeed(0, 10);
      expect(feed.map((e) => [e.sanctionId, e.kind, e.caseId])).toEqual([['s-k1', 'ban', null], ['s-k2', 'chat', null], ['s-k3', 'ban', null]]);
      expect((await store().pendingEffectsOf('b1')).map((e) => e.id)).toEqual(['s-k1:0-guard', 's-k2:0-guard']);
      expect((await store().pendingEffectsOf('b2')).map((e) => e.id)).toEqual(['s-k3:0-guard']);
      expect((await store().dueSanctions(100_000, 10)).map((s) => s.id)).toEqual(['s-k2']);
    });

    it("a key is its creator's own: another creator's same key is another sanction, and neither answers the other's", async () => {
      const of = (creator: string, key: string, userId: string) => item(key, userId, { id: `${creator}-${key}`, moderatorId: creator });
      await store().createSanctions({ items: [of('key-a', 'k1', 'u1')], at: 10_000, effectiveAt: null, sourceId: 'b1' });
      const theirs = await store().createSanctions({ items: [of('key-b', 'k1', 'u2'), of('key-b', 'k2', 'u2')], at: 11_000, effectiveAt: null, sourceId: 'b2' });
      expect(theirs.map((r) => [r.sanction.id, r.sanction.userId, r.created])).toEqual([['key-b-k1', 'u2', true], ['key-b-k2', 'u2', true]]);
      // Both creators in one batch: each item finds its own creator's key only (key-a has no k2 yet).
      const mixed = await store().createSanctions({ items: [of('key-a', 'k2', 'u3'), { ...of('key-a', 'k1', 'u1'), id: 'dup-a' }, { ...of('key-b', 'k1', 'u2'), id: 'dup-b' }], at: 12_000, effectiveAt: null, sourceId: 'b3' });
      expect(mixed.map((r) => [r.sanction.id, r.created])).toEqual([['key-a-k2', true], ['key-a-k1', false], ['key-b-k1', false]]);
      expect((await store().sanctionsOfUser('u1')).map((s) => s.id)).toEqual(['key-a-k1']);
      expect((await store().sanctionsOfUser('u3')).map((s) => [s.id, s.moderatorId, s.idempotencyKey])).toEqual([['key-a-k2', 'key-a', 'k2']]);
      expect(await store().getSanction('dup-a')).toBeNull();
      expect(await store().sanctionFeed(0, 10)).toHaveLength(4);
    });

    it("records the moderator the creator's key is bound to (null when it is not bound)", async () => {
      await store().createSanctions({ items: [item('b1', 'u1', { boundModeratorId: 'mod-7' }), item('b2', 'u2')], at: 10_000, effectiveAt: null, sourceId: 'b1' });
      expect(await store().getSanction('s-b1')).toMatchObject({ moderatorId: 'key-ac', boundModeratorId: 'mod-7' });
      expect(await store().getSanction('s-b2')).toMatchObject({ moderatorId: 'key-ac', boundModeratorId: null });
    });

    it('calls racing with the same keys create each sanction once', async () => {
      const batch = (n: number) => ({ items: [item('race-a', 'u1', { id: `a-${n}` }), item('race-b', 'u2', { id: `b-${n}` })], at: 10_000 + n, effectiveAt: null, sourceId: `race-${n}` });
      const results = await Promise.all([0, 1, 2, 3, 4].map((n) => store().createSanctions(batch(n))));
      const ids = new Set(results.flatMap((r) => r.map((x) => x.sanction.id)));
      expect(ids.size).toBe(2);
      expect(results.flatMap((r) => r.filter((x) => x.created))).toHaveLength(2);
      expect(await store().sanctionFeed(0, 10)).toHaveLength(2);
    });

    it('a scheduled wave: stored, not enforced nor in the feed, until activated, then every sanction with its event in one go', async () => {
      await store().createSanctions({ items: [item('w1', 'u1'), item('w2', 'u2'), item('w3', 'u3')], at: 10_000, effectiveAt: 50_000, sourceId: 'wave' });
      // Its effects come with the activation, not before.
      expect(await store().pendingEffectsOf('wave')).toEqual([]);
      expect(await store().getSanction('s-w1')).toMatchObject({ state: 'scheduled', effectiveAt: 50_000 });
      expect(await store().isBanned('u1')).toBe(false);
      expect(await store().bannedUserIds('', 100)).toEqual([]);
      expect(await store().sanctionFeed(0, 10)).toEqual([]);
      expect(await store().dueScheduledSanctions(49_999, 10)).toEqual([]);
      // A scheduled one lifted before the wave: never enforced, never in the feed.
      expect(await store().liftSanction({ sanctionId: 's-w3', at: 20_000, moderatorId: 'key-ac', reason: 'false positive', sourceId: 'lift-w3', effects: [] })).toMatchObject({ state: 'lifted' });
      const due = await store().dueScheduledSanctions(50_000, 10);
      expect(due.map((s) => s.id)).toEqual(['s-w1', 's-w2']);
      const items = [...due.map((s) => s.id), 's-w3'].map((sanctionId) => ({ sanctionId, effects: [effect(`${sanctionId}:0-guard`)] }));
      const activated = await store().activateSanctions({ items, at: 50_000, sourceId: 'activate-50000' });
      expect(activated.map((s) => [s.id, s.state])).toEqual([['s-w1', 'active'], ['s-w2', 'active']]);
      expect(await store().isBanned('u1')).toBe(true);
      expect((await store().sanctionFeed(0, 10)).map((e) => [e.type, e.sanctionId, e.at])).toEqual([
        ['sanction.created', 's-w1', 50_000],
        ['sanction.created', 's-w2', 50_000],
      ]);
      expect(await store().activateSanctions({ items: [{ sanctionId: 's-w1', effects: [effect('again:guard')] }], at: 60_000, sourceId: 'again' })).toEqual([]);
      expect(await store().dueScheduledSanctions(99_000, 10)).toEqual([]);
      // Effects only of the sanctions this call activated.
      expect((await store().pendingEffectsOf('activate-50000')).map((e) => e.id)).toEqual(['s-w1:0-guard', 's-w2:0-guard']);
      expect(await store().pendingEffectsOf('again')).toEqual([]);
    });
  });

  describe('open cases', () => {
    it('pages the open and claimed cases by id, without decided ones', async () => {
      const ids: string[] = [];
      for (const u of ['o1', 'o2', 'o3']) {
        const [saved] = await store().saveReports([report(`r-${u}`, u, 1_000)]);
        ids.push(saved!.caseId);
      }
      const claimed = (await store().transitionCase(step((await store().getCase(ids[1]!))!, 'claimed', 'd-oc-claim')))!;
      await approvedCase('o4', 'd-oc-approve');
      const all = await store().openCases('', 10);
      expect(all.map((c) => c.caseId)).toEqual([...ids].sort());
      expect(all.find((c) => c.caseId === claimed.id)?.state).toBe('claimed');
      const first = await store().openCases('', 2);
      expect([...first, ...(await store().openCases(first.at(-1)!.caseId, 2))].map((c) => c.caseId)).toEqual([...ids].sort());
      expect(await allOpenCases(store(), 1)).toEqual(all);
    });
  });

  describe('banned players', () => {
    it('pages the banned players by id, each once however many sanctions they have, without lifted ones', async () => {
      for (const [user, approval] of [['b3', 'd-b3'], ['b1', 'd-b1'], ['b2', 'd-b2a'], ['b2', 'd-b2b'], ['b4', 'd-b4']] as const) await approvedCase(user, approval);
      await store().liftSanction({ sanctionId: 'd-b4', at: 9_000, moderatorId: 'mod-1', sourceId: 'lift-b4', effects: [] });
      expect(await store().bannedUserIds('', 10)).toEqual(['b1', 'b2', 'b3']);
      expect(await store().bannedUserIds('', 2)).toEqual(['b1', 'b2']);
      expect(await store().bannedUserIds('b1', 1)).toEqual(['b2']);
      expect(await store().bannedUserIds('b2', 2)).toEqual(['b3']);
      expect(await store().bannedUserIds('b3', 2)).toEqual([]);
      expect(await store().bannedUserIds('', 0)).toEqual([]);
    });
  });

  describe('paged reads', () => {
    it('a limit of 0 gives an empty page, as SQL LIMIT 0 does (MongoDB reads limit(0) as no limit)', async () => {
      await approvedCase('u1', 'd-1', { reason: null, expiresAt: 9_000 });
      const [saved] = await store().saveReports([report('r-u2', 'u2', 1_000)]);
      await store().transitionCase(step((await store().getCase(saved!.caseId))!, 'claimed', 'd-c', { effects: [effect('d-c:guard')] }));
      // Each read has something to give with a limit of 10.
      expect(await store().sanctionFeed(0, 10)).toHaveLength(1);
      expect(await store().sanctionFeed(0, 0)).toEqual([]);
      expect(await store().dueSanctions(10_000, 0)).toEqual([]);
      expect(await store().pendingEffects(Number.MAX_SAFE_INTEGER, 0)).toEqual([]);
      expect(await store().openCases('', 0)).toEqual([]);
      expect(await store().scanReports(null, 0)).toEqual({ reports: [], cursor: null });
      expect(await store().dueSanctions(10_000, 10)).toHaveLength(1);
      expect(await store().pendingEffects(Number.MAX_SAFE_INTEGER, 10)).toHaveLength(1);
      expect(await store().openCases('', 10)).toHaveLength(1);
    });
  });

  describe('the sanction feed', () => {
    it('every change once, in order, with strictly increasing seq; paging with the last seq misses nothing', async () => {
      const c1 = await approvedCase('u1', 'd-1', { reason: null, expiresAt: 10_000 }, 5_000);
      await approvedCase('u2', 'd-2', undefined, 6_000);
      await store().transitionCase(step(c1, 'open', 'd-undo', { ban: 'lift' }, 7_000));
      await store().liftSanction({ sanctionId: 'd-2', at: 8_000, moderatorId: 'mod-2', sourceId: 'l', effects: [] });

      const all = await store().sanctionFeed(0, 100);
      expect(all.map((e) => [e.type, e.sanctionId, e.at])).toEqual([
        ['sanction.created', 'd-1', 5_000],
        ['sanction.created', 'd-2', 6_000],
        ['sanction.lifted', 'd-1', 7_000],
        ['sanction.lifted', 'd-2', 8_000],
      ]);
      expect(all[0]).toMatchObject({ userId: 'u1', caseId: c1.id, expiresAt: 10_000 });
      all.slice(1).forEach((e, i) => expect(e.seq).toBeGreaterThan(all[i]!.seq));

      const paged = [];
      for (let after = 0; ; ) {
        const page = await store().sanctionFeed(after, 3);
        if (page.length === 0) break;
        paged.push(...page);
        after = page.at(-1)!.seq;
      }
      expect(paged).toEqual(all);
      expect(await store().sanctionFeed(all.at(-1)!.seq, 10)).toEqual([]);
      expect((await store().sanctionEventsOf('d-1')).map((e) => e.type)).toEqual(['sanction.created', 'sanction.lifted']);
    });
  });

  describe('the effects outbox', () => {
    it('a decision records its effects with it; each is pending until completed, once', async () => {
      const [saved] = await store().saveReports([report('r1', 'u1', 1_000)]);
      const opened = (await store().getCase(saved!.caseId))!;
      await store().transitionCase(step(opened, 'claimed', 'd-claim', { effects: [effect('d-claim:guard'), effect('d-claim:notify', 'notify')] }, 2_000));

      const pending = await store().pendingEffectsOf('d-claim');
      expect(pending).toEqual([
        { id: 'd-claim:guard', sourceId: 'd-claim', kind: 'guard', payload: { id: 'd-claim:guard' }, createdAt: 2_000, doneAt: null },
        { id: 'd-claim:notify', sourceId: 'd-claim', kind: 'notify', payload: { id: 'd-claim:notify' }, createdAt: 2_000, doneAt: null },
      ]);
      expect(await store().pendingEffects(1_999, 10)).toEqual([]);
      expect((await store().pendingEffects(2_000, 10)).map((e) => e.id)).toEqual(['d-claim:guard', 'd-claim:notify']);

      await store().completeEffects(['d-claim:guard'], 3_000);
      await store().completeEffects(['d-claim:guard'], 4_000);
      await store().completeEffects([], 4_000);
      expect((await store().pendingEffectsOf('d-claim')).map((e) => e.id)).toEqual(['d-claim:notify']);
      expect((await store().pendingEffects(9_000, 10)).map((e) => e.id)).toEqual(['d-claim:notify']);

      await store().completeEffects(['d-claim:notify', 'd-claim:guard'], 5_000);
      expect(await store().pendingEffectsOf('d-claim')).toEqual([]);
      expect(await store().pendingEffects(9_000, 10)).toEqual([]);
    });

    it('pruneEffects deletes done effects done before the cut, a bounded number at a time, and never a pending one', async () => {
      const [saved] = await store().saveReports([report('r1', 'u1', 1_000)]);
      const opened = (await store().getCase(saved!.caseId))!;
      const ids = ['d-claim:a', 'd-claim:b', 'd-claim:c', 'd-claim:pending'];
      await store().transitionCase(step(opened, 'claimed', 'd-claim', { effects: ids.map((id) => effect(id)) }, 2_000));
      await store().completeEffects(['d-claim:a', 'd-claim:b'], 3_000);
      await store().completeEffects(['d-claim:c'], 5_000);
      expect(await store().pruneEffects(3_000, 10)).toBe(0);
      expect(await store().pruneEffects(4_000, 0)).toBe(0);
      expect(await store().pruneEffects(4_000, 1)).toBe(1);
      expect(await store().pruneEffects(9_000, 10)).toBe(2);
      expect(await store().pruneEffects(9_000, 10)).toBe(0);
      expect((await store().pendingEffectsOf('d-claim')).map((e) => e.id)).toEqual(['d-claim:pending']);
      expect((await store().pendingEffects(9_000, 10)).map((e) => e.id)).toEqual(['d-claim:pending']);
    });

    it('pendingEffectsOf gives a source\'s effects in the order they were recorded, whatever their ids', async () => {
      const [saved] = await store().saveReports([report('r1', 'u1', 1_000)]);
      const opened = (await store().getCase(saved!.caseId))!;
      // Recorded in the same instant, in an order their ids do not sort in.
      const ids = ['d-claim:9-notify', 'd-claim:10-guard', 'd-claim:2-guard', 'd-claim:0-notify'];
      await store().transitionCase(step(opened, 'claimed', 'd-claim', { effects: ids.map((id) => effect(id)) }, 2_000));
      expect((await store().pendingEffectsOf('d-claim')).map((e) => e.id)).toEqual(ids);
    });

    it('an effect that waits is recorded at its notBefore, never before the change itself: pending reads leave it out until then', async () => {
      const [saved] = await store().saveReports([report('r1', 'u1', 1_000)]);
      const opened = (await store().getCase(saved!.caseId))!;
      const effects = [effect('d-claim:0-guard'), { ...effect('d-claim:1-later'), notBefore: 50_000 }, { ...effect('d-claim:2-past'), notBefore: 10 }];
      await store().transitionCase(step(opened, 'claimed', 'd-claim', { effects }, 2_000));
      // Sorted by the time each waits for: the one due before the change keeps its place.
      expect((await store().pendingEffectsOf('d-claim')).map((e) => [e.id, e.createdAt])).toEqual([
        ['d-claim:0-guard', 2_000],
        ['d-claim:2-past', 2_000],
        ['d-claim:1-later', 50_000],
      ]);
      expect((await store().pendingEffects(49_999, 10)).map((e) => e.id)).toEqual(['d-claim:0-guard', 'd-claim:2-past']);
      await store().completeEffects(['d-claim:0-guard', 'd-claim:2-past'], 3_000);
      expect(await store().pendingEffects(49_999, 10)).toEqual([]);
      expect((await store().pendingEffects(50_000, 10)).map((e) => e.id)).toEqual(['d-claim:1-later']);
    });

    it('recordedEffects is what pendingEffectsOf reads back after the transition that recorded them', async () => {
      const [saved] = await store().saveReports([report('r1', 'u1', 1_000)]);
      const opened = (await store().getCase(saved!.caseId))!;
      const effects = [effect('d-claim:9-notify'), { ...effect('d-claim:1-later'), notBefore: 50_000 }, effect('d-claim:10-guard'), { ...effect('d-claim:2-past'), notBefore: 10 }];
      await store().transitionCase(step(opened, 'claimed', 'd-claim', { effects }, 2_000));
      expect(recordedEffects('d-claim', effects, 2_000)).toEqual(await store().pendingEffectsOf('d-claim'));
    });

    it('a refused compare-and-set records no effect and no sanction', async () => {
      const [saved] = await store().saveReports([report('r1', 'u1', 1_000)]);
      const opened = (await store().getCase(saved!.caseId))!;
      const stale = { ...opened, version: opened.version + 5 };
      expect(await store().transitionCase(step(stale, 'approved', 'd-stale', { ban: 'set', effects: [effect('d-stale:guard')] }))).toBeNull();
      expect(await store().pendingEffectsOf('d-stale')).toEqual([]);
      expect(await store().sanctionsOfUser('u1')).toEqual([]);
      expect(await store().sanctionFeed(0, 10)).toEqual([]);
    });
  });
}

/** Two handles on the same data: changes committing while a reader pages the feed. */
export function describeSharedSanctionsContract(open: () => Promise<[Store, Store]>): void {
  it('a reader paging the feed while two writers approve sees every change exactly once, in seq order', async () => {
    const [a, b] = await open();
    try {
      const writer = async (s: Store, who: string) => {
        for (let i = 0; i < 15; i++) {
          const userId = `${who}-${i}`;
          const [saved] = await s.saveReports([report(`r-${userId}`, userId, 1_000 + i)]);
          const opened = (await s.getCase(saved!.caseId))!;
          await s.transitionCase(step(opened, 'approved', `d-${userId}`, { ban: 'set' }, 2_000 + i));
        }
      };
      const seen: number[] = [];
      let done = false;
      const reader = (async () => {
        let after = 0;
        for (;;) {
          const finished = done;
          const page = await b.sanctionFeed(after, 4);
          seen.push(...page.map((e) => e.seq));
          if (page.length > 0) after = page.at(-1)!.seq;
          else if (finished) return;
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      await Promise.all([writer(a, 'a'), writer(b, 'b')]);
      done = true;
      await reader;
      const all = (await a.sanctionFeed(0, 1000)).map((e) => e.seq);
      expect(all).toHaveLength(30);
      expect(seen).toEqual(all);
    } finally {
      await a.close();
      await b.close();
    }
  });
}
