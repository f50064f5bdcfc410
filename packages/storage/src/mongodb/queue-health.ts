import type { MongoClient, TransactionOptions } from 'mongodb';
import type { CaseTimeline, OpenCaseSummary, SlaBreach } from '../records.js';
import type { Store } from '../store.js';
import type { Collections } from './collections.js';
import { isDuplicateKey } from './driver-errors.js';

type QueueHealthMethods = Pick<Store, 'recordSlaBreach' | 'slaBreachesSince' | 'listOpenCases' | 'countReportsSince' | 'caseTimelinesSince'>;

const MAJORITY: TransactionOptions = { readConcern: { level: 'snapshot' }, writeConcern: { w: 'majority' }, readPreference: 'primary' };

/** Thrown inside the transaction when the breach of this opening is already recorded. */
class AlreadyRecorded extends Error {}

/** The queue-health reads and the SLA breach record of the MongoDB store. */
export function mongoQueueHealth(client: MongoClient, c: Collections): QueueHealthMethods {
  return {
    // The breach and the case's flag commit together, as in the SQLite store.
    async recordSlaBreach(b: SlaBreach) {
      try {
        await client.withSession((session) =>
          session.withTransaction(async (s) => {
            const kase = await c.cases.findOne({ _id: b.caseId }, { projection: { userId: 1 }, session: s });
            if (!kase) throw new Error(`case ${b.caseId} not found`);
            try {
              await c.slaBreaches.insertOne(
                { _id: `${b.caseId}:${b.openingId}`, caseId: b.caseId, userId: kase.userId, openingId: b.openingId, category: b.category, at: b.at },
                { session: s },
              );
            } catch (err) {
              if (isDuplicateKey(err)) throw new AlreadyRecorded();
              throw err;
            }
            await c.cases.updateOne({ _id: b.caseId }, { $set: { slaBreached: true } }, { session: s });
          }, MAJORITY),
        );
        return true;
      } catch (err) {
        if (err instanceof AlreadyRecorded) return false;
        throw err;
      }
    },
    async slaBreachesSince(since) {
      const docs = await c.slaBreaches.find({ at: { $gte: since } }).sort({ at: 1, caseId: 1, openingId: 1 }).toArray();
      return docs.map((d) => ({ caseId: d.caseId, openingId: d.openingId, category: d.category, at: d.at }));
    },
    async listOpenCases(): Promise<OpenCaseSummary[]> {
      const docs = await c.cases
        .find({ open: true }, { projection: { _id: 1, userId: 1, state: 1, claimedBy: 1, createdAt: 1, slaBreached: 1 } })
        .sort({ createdAt: 1, _id: 1 })
        .toArray();
      return docs.map((d) => ({
        caseId: d._id,
        userId: d.userId,
        state: d.state === 'claimed' ? 'claimed' : 'open',
        claimedBy: d.claimedBy ?? null,
        createdAt: d.createdAt,
        slaBreached: d.slaBreached === true,
      }));
    },
    countReportsSince(since) {
      return c.reports.countDocuments({ receivedAt: { $gte: since } });
    },
    async caseTimelinesSince(since) {
      // The cases with a decision in the window (aggregated on the server), then their whole histories.
      const active = await c.events.aggregate<{ _id: string }>([{ $match: { at: { $gte: since } } }, { $group: { _id: '$caseId' } }]).toArray();
      const ids = active.map((a) => a._id);
      if (ids.length === 0) return [];
      const [cases, events] = await Promise.all([
        c.cases.find({ _id: { $in: ids } }, { projection: { _id: 1, userId: 1, createdAt: 1 } }).toArray(),
        c.events.find({ caseId: { $in: ids } }, { projection: { caseId: 1, seq: 1, decisionId: 1, action: 1, moderatorId: 1, at: 1 } }).sort({ caseId: 1, seq: 1 }).toArray(),
      ]);
      const byCase = new Map<string, CaseTimeline>(cases.map((d) => [d._id, { caseId: d._id, userId: d.userId, createdAt: d.createdAt, events: [] }]));
      for (const e of events) byCase.get(e.caseId)?.events.push({ decisionId: e.decisionId, action: e.action, moderatorId: e.moderatorId, at: e.at });
      return [...byCase.values()];
    },
  };
}
