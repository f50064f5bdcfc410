import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatementOfReasons } from '@rm/contracts';
import type { CaseRecord, NewSanction, Transition } from '../index.js';
import type { Store } from '../index.js';
import { report } from './fixtures.contract.js';

/** A complete statement of reasons for the suites; `from` is the restriction's start. */
export function statementFixture(o: { from: number; ground?: 'terms' | 'illegal'; decision?: StatementOfReasons['automation']['automatedDecision']; detection?: boolean }): StatementOfReasons {
  const illegal = o.ground === 'illegal';
  return {
    ground: { type: o.ground ?? 'terms', clause: 'Do not cheat.', law: illegal ? '§ 202c StGB' : null, explanation: 'Cheat software seen in the clip.' },
    facts: {
      origin: 'reports',
      category: 'cheating',
      publicDescription: 'Cheating',
      transparencyCategory: 'OTHER_VIOLATION_TC',
      reports: { count: 2, firstAt: o.from - 500, lastAt: o.from - 100 },
      evidence: [{ url: 'https://clips.example/1', sha256: 'c'.repeat(64) }, { url: 'https://clips.example/2', sha256: null }],
      reason: 'aimbot',
    },
    restriction: { kind: 'ban', label: 'Banned (no login)', blocksLogin: true, from: o.from, until: null },
    automation: { automatedDetection: o.detection ?? false, automatedDecision: o.decision ?? 'not' },
    redress: { appealUntil: o.from + 180 * 86_400_000, howToAppeal: 'Appeal in the game.' },
    issuedAt: o.from,
  };
}

let n = 0;
const step = (c: CaseRecord, state: CaseRecord['state'], decisionId: string, at: number, extra: Partial<Transition> = {}): Transition => ({
  caseId: c.id,
  expectedVersion: c.version,
  expectedState: c.state,
  next: { state, claimedBy: null },
  event: { decisionId, action: ({ approved: 'approve', dismissed: 'dismiss', open: 'undo', claimed: 'claim' } as const)[state], moderatorId: 'mod-1', at, result: { ok: true } },
  ...extra,
});

const trusted = (key: string, userId: string, statement: StatementOfReasons, extra: Partial<NewSanction> = {}): NewSanction => ({
  id: `s-${key}`,
  userId,
  kind: 'ban',
  blocksLogin: true,
  category: 'cheating',
  source: { type: 'anticheat', id: 'det-1' },
  idempotencyKey: key,
  evidence: [],
  reason: 'cheat detected',
  moderatorId: 'key-ac',
  expiresAt: null,
  statement,
  effects: [],
  ...extra,
});

/** Statements of reasons and the transparency reads: part of the Store contract, for every adapter. */
export function describeStatementsContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Store contract (statements of reasons, transparency): ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    /** A case of `userId` with reports at `reportTimes` (answers naming `category` on `platform`). */
    async function caseWith(userId: string, reportTimes: number[], category = 'cheating', platform = 'gameplatform'): Promise<CaseRecord> {
      const saved = await store.saveReports(
        reportTimes.map((t) => report(`r-${userId}-${n++}`, userId, t, { reporterId: `rep-${n}`, reporterPlatform: platform, answers: [{ questionId: 'category', answer: ` ${category.toUpperCase()} ` }] })),
      );
      return (await store.getCase(saved[0]!.caseId))!;
    }
    async function approve(c: CaseRecord, decisionId: string, at: number, statement: StatementOfReasons | undefined): Promise<CaseRecord> {
      return (await store.transitionCase(step(c, 'approved', decisionId, at, { ban: 'set', sanction: { reason: 'aimbot', expiresAt: null, ...(statement && { statement }) } })))!;
    }

    it('an approval stores its statement unchanged; the ban API reads, the creation event and sanctionEventsOf carry it, a lift event does not', async () => {
      const statement = statementFixture({ from: 5_000, ground: 'illegal', decision: 'partially' });
      const c = await approve(await caseWith('u1', [4_000]), 'd-1', 5_000, statement);
      expect((await store.getSanction('d-1'))!.statement).toEqual(statement);
      expect((await store.sanctionsOfUser('u1'))[0]!.statement).toEqual(statement);
      await store.transitionCase(step(c, 'open', 'd-undo', 6_000, { ban: 'lift' }));
      const feed = await store.sanctionFeed(0, 10);
      expect(feed.map((e) => [e.type, e.statement])).toEqual([
        ['sanction.created', statement],
        ['sanction.lifted', null],
      ]);
      expect((await store.sanctionEventsOf('d-1')).map((e) => e.statement)).toEqual([statement, null]);
    });

    it('a sanction without a statement (earlier versions) reads back with statement null', async () => {
      await approve(await caseWith('u1', [4_000]), 'd-old', 5_000, undefined);
      expect((await store.getSanction('d-old'))!.statement).toBeNull();
      expect((await store.sanctionFeed(0, 10))[0]!.statement).toBeNull();
    });

    it("a trusted system's sanction and a wave's keep their statements; a wave's creation event carries it when it takes effect", async () => {
      const now = statementFixture({ from: 10_000, detection: true, decision: 'fully' });
      const wave = statementFixture({ from: 50_000, detection: true, decision: 'not' });
      await store.createSanctions({ items: [trusted('k1', 'u1', now)], at: 10_000, effectiveAt: null, sourceId: 'b1' });
      await store.createSanctions({ items: [trusted('w1', 'u2', wave)], at: 10_000, effectiveAt: 50_000, sourceId: 'b2' });
      expect((await store.getSanction('s-k1'))!.statement).toEqual(now);
      expect((await store.getSanction('s-w1'))!.statement).toEqual(wave);
      await store.activateSanctions({ items: [{ sanctionId: 's-w1', effects: [] }], at: 50_000, sourceId: 'act' });
      expect((await store.sanctionFeed(0, 10)).map((e) => [e.sanctionId, e.statement])).toEqual([
        ['s-k1', now],
        ['s-w1', wave],
      ]);
    });

    describe('transparency', () => {
      const query = { categoryQuestionId: 'category', categories: ['cheating', 'harassment', 'other'], defaultCategory: 'other' };

      it('figures of a period: reports by category and platform, decisions, sanctions by kind, ground and automation, median time to decision', async () => {
        // Reports: in the period [10_000, 20_000) three cheating (two platforms), one harassment, one unknown answer (-> other);
        // one before and one at the period's end, both left out.
        const a = await caseWith('u1', [10_000, 11_000], 'cheating');
        const b = await caseWith('u2', [12_000], 'cheating', 'discord');
        const h = await caseWith('u3', [13_000], 'harassment');
        const x = await caseWith('u4', [14_000], 'no-such-category');
        await caseWith('u5', [9_999], 'cheating');
        await caseWith('u6', [20_000], 'cheating');
        // Decisions in the period: a approved at 15_000 (5_000 after its first report), b dismissed at 18_000 (6_000),
        // h approved at 16_000 (3_000) then undone, x approved at 30_000 (outside).
        await approve(a, 'd-a', 15_000, statementFixture({ from: 15_000, ground: 'terms', decision: 'not' }));
        await store.transitionCase(step(b, 'dismissed', 'd-b', 18_000));
        const hApproved = await approve(h, 'd-h', 16_000, statementFixture({ from: 16_000, ground: 'illegal', decision: 'partially' }));
        await store.transitionCase(step(hApproved, 'open', 'd-h-undo', 17_000, { ban: 'lift' }));
        await approve(x, 'd-x', 30_000, statementFixture({ from: 30_000 }));
        // Sanctions: a trusted one in the period; a wave created in it but starting after it; a wave created before it
        // starting in it; a wave starting in it lifted before it started; an old one without a statement.
        await store.createSanctions({ items: [trusted('t1', 'u7', statementFixture({ from: 12_000, detection: true, decision: 'fully' }))], at: 12_000, effectiveAt: null, sourceId: 'b1' });
        await store.createSanctions({ items: [trusted('w-late', 'u8', statementFixture({ from: 25_000 }))], at: 12_000, effectiveAt: 25_000, sourceId: 'b2' });
        await store.createSanctions({ items: [trusted('w-in', 'u9', statementFixture({ from: 19_000, detection: true, decision: 'fully' }), { kind: 'chat', blocksLogin: false })], at: 5_000, effectiveAt: 19_000, sourceId: 'b3' });
        await store.createSanctions({ items: [trusted('w-gone', 'u10', statementFixture({ from: 19_500 }))], at: 5_000, effectiveAt: 19_500, sourceId: 'b4' });
        await store.liftSanction({ sanctionId: 's-w-gone', at: 6_000, moderatorId: 'key-ac', reason: 'false positive', sourceId: 'l', effects: [] });
        await store.activateSanctions({ items: [{ sanctionId: 's-w-in', effects: [] }], at: 19_000, sourceId: 'act' });
        await approve(await caseWith('u11', [5_000]), 'd-old', 14_500, undefined);

        const f = await store.transparencyFigures({ from: 10_000, to: 20_000, ...query });
        expect(f.reports).toEqual([
          { category: 'cheating', platform: 'discord', count: 1 },
          { category: 'cheating', platform: 'gameplatform', count: 2 },
          { category: 'harassment', platform: 'gameplatform', count: 1 },
          { category: 'other', platform: 'gameplatform', count: 1 },
        ]);
        expect(f.decisions).toEqual({ approved: 3, dismissed: 1, undone: 1 });
        expect(f.medianTimeToDecisionMs).toBe(5_500); // of 3_000, 5_000, 6_000 and 9_500 (d-old: 14_500 - 5_000)
        const sanctions = [...f.sanctions].sort((p, q) => JSON.stringify(p).localeCompare(JSON.stringify(q)));
        expect(sanctions).toEqual(
          [
            { kind: 'ban', ground: 'illegal', automatedDetection: false, automatedDecision: 'partially', count: 1 },
            { kind: 'ban', ground: 'terms', automatedDetection: false, automatedDecision: 'not', count: 1 },
            { kind: 'ban', ground: 'terms', automatedDetection: true, automatedDecision: 'fully', count: 1 },
            { kind: 'ban', ground: null, automatedDetection: null, automatedDecision: null, count: 1 },
            { kind: 'chat', ground: 'terms', automatedDetection: true, automatedDecision: 'fully', count: 1 },
          ].sort((p, q) => JSON.stringify(p).localeCompare(JSON.stringify(q))),
        );
        const empty = await store.transparencyFigures({ from: 100_000, to: 200_000, ...query });
        expect(empty).toEqual({ reports: [], decisions: { approved: 0, dismissed: 0, undone: 0 }, sanctions: [], medianTimeToDecisionMs: null, appeals: { received: 0, upheld: 0, overturned: 0, medianTimeToDecisionMs: null } });
      });

      it('statementsIn pages the statements that took effect in the period, by start then id, without gaps or repeats', async () => {
        const items = [1, 2, 3, 4, 5].map((i) => trusted(`p${i}`, `u${i}`, statementFixture({ from: 10_000 + (i % 3) * 1_000 })));
        // Several share a start (ties broken by id).
        for (const it of items) {
          const from = it.statement.restriction.from;
          await store.createSanctions({ items: [it], at: from, effectiveAt: null, sourceId: `x-${it.id}` });
        }
        // Outside the period, scheduled still, and without a statement: none of them listed.
        await store.createSanctions({ items: [trusted('late', 'u9', statementFixture({ from: 40_000 }))], at: 40_000, effectiveAt: null, sourceId: 'late' });
        await store.createSanctions({ items: [trusted('sched', 'u9', statementFixture({ from: 15_000 }))], at: 9_000, effectiveAt: 15_000, sourceId: 'sched' });
        await approve(await caseWith('u10', [11_000]), 'd-old', 11_500, undefined);

        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const page = await store.statementsIn({ from: 10_000, to: 20_000 }, cursor, 2);
          seen.push(...page.sanctions.map((s) => `${s.statement!.restriction.from}/${s.id}`));
          cursor = page.cursor;
          pages++;
        } while (cursor !== null && pages < 10);
        const expected = items.map((it) => `${it.statement.restriction.from}/${it.id}`).sort((p, q) => (p < q ? -1 : 1));
        expect(seen).toEqual(expected);
        expect((await store.statementsIn({ from: 10_000, to: 20_000 }, null, 0)).sanctions).toEqual([]);
      });
    });
  });
}
