import type { MongoClient } from 'mongodb';
import { DECIDED_STATES, type EvidenceAction, type EvidenceItemRecord, type EvidenceState } from '@rm/storage';
import type { Store } from '@rm/storage';
import type { Collections } from './collections.js';
import type { EvidenceDoc } from './documents.js';
import { caseIdIn } from './partial-filters.js';
import { runTransaction } from './transactions.js';
import { heldCases } from './privacy-rules.js';

const idOf = (reportId: string, index: number) => `${reportId}/${index}`;
const toItem = ({ _id: _ignored, ...item }: EvidenceDoc): EvidenceItemRecord => item;
const ACTION: Record<EvidenceState, EvidenceAction> = { captured: 'evidence.captured', failed: 'evidence.failed', deleted: 'evidence.deleted' };

type EvidenceMethods = Pick<Store, 'recordEvidence' | 'evidenceOfReports' | 'evidenceAudit' | 'expiredEvidence' | 'deleteEvidence'>;

/** Evidence items and their audit in the MongoDB store (collections `evidence`, `evidence_audit`). */
export function evidenceMethods(client: MongoClient, c: Collections): EvidenceMethods {
  return {
    // Two workers recording one item at once both read "none" and both write: the second
    // transaction's write conflicts, runTransaction runs it again, and it then finds the first's.
    recordEvidence: (item) =>
      runTransaction(client, async (s) => {
          const _id = idOf(item.reportId, item.index);
          const before = await c.evidence.findOne({ _id }, { session: s });
          if (before && before.state !== 'failed') return toItem(before);
          await c.evidence.replaceOne({ _id }, { ...item }, { upsert: true, session: s });
          const detail = item.failure === null ? item.detail : `${item.failure}: ${item.detail ?? ''}`;
          await c.evidenceAudit.insertOne({ reportId: item.reportId, index: item.index, action: ACTION[item.state], sha256: item.sha256, detail, at: item.at }, { session: s });
          return item;
        }),
    async evidenceOfReports(reportIds) {
      if (reportIds.length === 0) return [];
      return (await c.evidence.find({ reportId: { $in: reportIds } }).sort({ reportId: 1, index: 1 }).toArray()).map(toItem);
    },
    async evidenceAudit(reportId) {
      const docs = await c.evidenceAudit.find({ reportId }).sort({ at: 1, _id: 1 }).toArray();
      return docs.map(({ _id: _ignored, ...entry }) => entry);
    },
    async expiredEvidence(decidedBefore, cursor, limit, heldAt = Date.now()) {
      // limit(0) would mean "no limit" to MongoDB; nothing is asked for, nothing is listed, as in SQL.
      if (limit <= 0) return { items: [], cursor };
      // Four bounded reads at one snapshot, each through an index: the page of captured items by
      // _id (evidence_captured_by_id), their decided cases (_id), and of those the ones held by an
      // active sanction (sanctions_active_by_case_v2) or a waiting appeal (appeals_by_case). The
      // cursor passes the held items, so each is read once per sweep.
      return client.withSession({ snapshot: true }, async (session) => {
        const page = await c.evidence
          .find({ state: 'captured', ...(cursor === null ? {} : { _id: { $gt: cursor } }) }, { session })
          .sort({ _id: 1 })
          .limit(limit)
          .toArray();
        const caseIds = [...new Set(page.map((d) => d.caseId))];
        const decidedCases =
          caseIds.length === 0
            ? []
            : await c.cases.find({ _id: { $in: caseIds }, state: { $in: [...DECIDED_STATES] }, updatedAt: { $lt: decidedBefore } }, { projection: { _id: 1, userId: 1 }, session }).toArray();
        const decided = decidedCases.map((d) => d._id);
        // One after the other: a session runs one operation at a time.
        const held = decided.length === 0 ? [] : await c.sanctions.find({ ...caseIdIn(decided), state: 'active' }, { projection: { caseId: 1 }, session }).toArray();
        const appealed = decided.length === 0 ? [] : await c.appeals.find({ ...caseIdIn(decided), state: { $in: ['open', 'claimed'] } }, { projection: { caseId: 1 }, session }).toArray();
        // A legal hold on the case, its player or its sanction keeps it too (privacy.ts).
        const onHold = await heldCases(c, session, decidedCases, heldAt);
        const kept = new Set([...[...held, ...appealed].map((d) => d.caseId), ...onHold]);
        const expired = new Set(decided.filter((id) => !kept.has(id)));
        const last = page.at(-1);
        return { items: page.filter((d) => expired.has(d.caseId)).map(toItem), cursor: page.length === limit && last ? last._id : null };
      });
    },
    deleteEvidence: (keys, at) =>
      runTransaction(client, async (s) => {
          // Built anew on each run: runTransaction may run this callback again.
          const hashes = new Set<string>();
          for (const key of keys) {
            const doc = await c.evidence.findOneAndUpdate({ _id: idOf(key.reportId, key.index), state: 'captured' }, { $set: { state: 'deleted', at } }, { session: s, returnDocument: 'before' });
            if (!doc) continue;
            await c.evidenceAudit.insertOne({ reportId: doc.reportId, index: doc.index, action: 'evidence.deleted', sha256: doc.sha256, detail: null, at }, { session: s });
            if (doc.sha256 !== null) hashes.add(doc.sha256);
          }
          const unheld: string[] = [];
          for (const sha256 of hashes) {
            if ((await c.evidence.findOne({ sha256, state: 'captured' }, { session: s, projection: { _id: 1 } })) === null) unheld.push(sha256);
          }
          return unheld;
        }),
  };
}
