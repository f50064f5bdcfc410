import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CaseRecord, CaseState, EvidenceItemRecord, Transition } from '../index.js';
import type { Store } from '../index.js';
import { allExpiredEvidence, report } from './fixtures.contract.js';

const SHA_A = 'a'.repeat(64);
const SHA_B = 'b'.repeat(64);

const captured = (reportId: string, caseId: string, index: number, sha256: string, at = 2_000): EvidenceItemRecord => ({
  reportId,
  index,
  caseId,
  state: 'captured',
  failure: null,
  detail: null,
  sha256,
  size: 10,
  contentType: 'image/png',
  capturedAt: at,
  at,
});
const failed = (reportId: string, caseId: string, index: number, failure: string): EvidenceItemRecord => ({
  reportId,
  index,
  caseId,
  state: 'failed',
  failure,
  detail: 'HTTP 503',
  sha256: null,
  size: null,
  contentType: null,
  capturedAt: null,
  at: 1_500,
});

let seq = 0;
const decide = (c: CaseRecord, state: CaseState, ban?: 'set'): Transition => ({
  caseId: c.id,
  expectedVersion: c.version,
  expectedState: c.state,
  next: { state, claimedBy: null },
  ...(ban && { ban }),
  event: { decisionId: `evidence-decision-${++seq}`, action: state === 'approved' ? 'approve' : 'dismiss', moderatorId: 'mod-1', at: 5_000, result: { ok: true } },
});

/** The evidence part of the storage contract; describeStoreContract runs it for every adapter. */
export function describeEvidenceContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Store contract (evidence): ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });
    const caseOf = async (reportId: string, userId: string) => (await store.getCase((await store.saveReports([report(reportId, userId, 1_000)]))[0]!.caseId))!;

    it('records a capture with its audit entry and reads it back by report', async () => {
      const c = await caseOf('r1', 'u1');
      const item = captured('r1', c.id, 0, SHA_A);
      expect(await store.recordEvidence(item)).toEqual(item);
      expect(await store.evidenceOfReports(['r1', 'other'])).toEqual([item]);
      expect(await store.evidenceAudit('r1')).toEqual([{ reportId: 'r1', index: 0, action: 'evidence.captured', sha256: SHA_A, detail: null, at: 2_000 }]);
      expect(await store.evidenceOfReports([])).toEqual([]);
    });

    it('a captured item is settled: recording it again changes nothing', async () => {
      const c = await caseOf('r1', 'u1');
      const first = captured('r1', c.id, 0, SHA_A);
      await store.recordEvidence(first);
      expect(await store.recordEvidence(captured('r1', c.id, 0, SHA_B, 3_000))).toEqual(first);
      expect(await store.recordEvidence(failed('r1', c.id, 0, 'timed_out'))).toEqual(first);
      expect(await store.evidenceOfReports(['r1'])).toEqual([first]);
      expect(await store.evidenceAudit('r1')).toHaveLength(1);
    });

    it('a failed item is replaced by a later capture; the audit keeps both', async () => {
      const c = await caseOf('r1', 'u1');
      await store.recordEvidence(failed('r1', c.id, 1, 'http_status'));
      await store.recordEvidence(failed('r1', c.id, 0, 'timed_out'));
      const later = captured('r1', c.id, 1, SHA_A, 4_000);
      await store.recordEvidence(later);
      expect((await store.evidenceOfReports(['r1'])).map((i) => [i.index, i.state, i.failure])).toEqual([
        [0, 'failed', 'timed_out'],
        [1, 'captured', null],
      ]);
      expect((await store.evidenceAudit('r1')).map((e) => [e.index, e.action, e.detail])).toEqual([
        [1, 'evidence.failed', 'http_status: HTTP 503'],
        [0, 'evidence.failed', 'timed_out: HTTP 503'],
        [1, 'evidence.captured', null],
      ]);
    });

    it('lists as expired the captured items of cases decided before the time, never one behind an active sanction', async () => {
      const dismissed = await caseOf('r1', 'u1');
      const approved = await caseOf('r2', 'u2');
      const open = await caseOf('r3', 'u3');
      await store.recordEvidence(captured('r1', dismissed.id, 0, SHA_A));
      await store.recordEvidence(failed('r1', dismissed.id, 1, 'too_large'));
      await store.recordEvidence(captured('r2', approved.id, 0, SHA_B));
      await store.recordEvidence(captured('r3', open.id, 0, SHA_A));
      await store.transitionCase(decide(dismissed, 'dismissed'));
      const banned = (await store.transitionCase(decide(approved, 'approved', 'set')))!;
      const later = Date.now() + 60_000;
      expect(await store.expiredEvidence(later, null, 10)).toEqual({ items: [expect.objectContaining({ reportId: 'r1', index: 0 })], cursor: null });
      expect(await store.expiredEvidence(Date.now() - 3_600_000, null, 10)).toEqual({ items: [], cursor: null });
      expect((await store.expiredEvidence(later, null, 0)).items).toEqual([]);
      const [sanction] = await store.sanctionsOfUser('u2');
      await store.liftSanction({ sanctionId: sanction!.id, at: 9_000, moderatorId: 'mod-1', sourceId: 'lift-evidence', effects: [] });
      expect(banned.state).toBe('approved');
      expect((await store.expiredEvidence(later, null, 10)).items.map((i) => i.reportId).sort()).toEqual(['r1', 'r2']);
      expect((await store.expiredEvidence(later, null, 1)).items).toHaveLength(1);
    });

    it('pages by a cursor past the items a sanction holds: each captured item is read once per sweep', async () => {
      const held = await caseOf('h1', 'u1');
      const dismissed = await caseOf('d1', 'u2');
      for (const i of [0, 1, 2]) await store.recordEvidence(captured('h1', held.id, i, SHA_A));
      for (const i of [0, 1]) await store.recordEvidence(captured('d1', dismissed.id, i, SHA_B));
      await store.transitionCase(decide(held, 'approved', 'set'));
      await store.transitionCase(decide(dismissed, 'dismissed'));
      const later = Date.now() + 60_000;
      // Two items a page: five captured items are three pages, the last without a cursor; the held
      // ones are passed, never answered, and no page starts again from the first.
      const pages: { items: string[]; cursor: string | null }[] = [];
      for (let cursor: string | null = null; ; ) {
        const page = await store.expiredEvidence(later, cursor, 2);
        pages.push({ items: page.items.map((i) => `${i.reportId}/${i.index}`), cursor: page.cursor });
        if (page.cursor === null) break;
        cursor = page.cursor;
      }
      expect(pages).toHaveLength(3);
      expect(pages.map((p) => p.cursor === null)).toEqual([false, false, true]);
      expect(pages.flatMap((p) => p.items).sort()).toEqual(['d1/0', 'd1/1']);
      expect((await allExpiredEvidence(store, later, 1)).map((i) => `${i.reportId}/${i.index}`).sort()).toEqual(['d1/0', 'd1/1']);
    });

    it('deletes captured items with an audit entry, and answers the hashes no captured item holds any more', async () => {
      const one = await caseOf('r1', 'u1');
      const two = await caseOf('r2', 'u2');
      await store.recordEvidence(captured('r1', one.id, 0, SHA_A));
      await store.recordEvidence(captured('r1', one.id, 1, SHA_B));
      await store.recordEvidence(captured('r2', two.id, 0, SHA_A));
      await store.recordEvidence(failed('r2', two.id, 1, 'timed_out'));
      // SHA_A is still held by r2's item; r2/1 failed and is left as it is; unknown keys are ignored.
      const gone = await store.deleteEvidence(
        [
          { reportId: 'r1', index: 0 },
          { reportId: 'r1', index: 1 },
          { reportId: 'r2', index: 1 },
          { reportId: 'nope', index: 0 },
        ],
        7_000,
      );
      expect(gone).toEqual([SHA_B]);
      expect((await store.evidenceOfReports(['r1', 'r2'])).map((i) => [i.reportId, i.index, i.state, i.sha256])).toEqual([
        ['r1', 0, 'deleted', SHA_A],
        ['r1', 1, 'deleted', SHA_B],
        ['r2', 0, 'captured', SHA_A],
        ['r2', 1, 'failed', null],
      ]);
      expect((await store.evidenceAudit('r1')).filter((e) => e.action === 'evidence.deleted').map((e) => [e.index, e.sha256, e.at])).toEqual([
        [0, SHA_A, 7_000],
        [1, SHA_B, 7_000],
      ]);
      expect(await store.deleteEvidence([{ reportId: 'r2', index: 0 }], 8_000)).toEqual([SHA_A]);
      // Deleted is settled too, and deleting again is nothing.
      expect(await store.deleteEvidence([{ reportId: 'r2', index: 0 }], 9_000)).toEqual([]);
      expect((await store.recordEvidence(captured('r2', two.id, 0, SHA_A, 9_500))).state).toBe('deleted');
    });
  });
}
