import type { MongoClient } from 'mongodb';
import type { CaseTimeline, OpenCaseSummary, SlaBreach } from '@rm/storage';
import type { Store } from '@rm/storage';
import type { Collections } from './collections.js';
import { isDuplicateKey } from './driver-errors.js';
import { runTransaction } from './transactions.js';

type QueueHealthMethods = Pick<Store, 'recordSlaBreach' | 'slaBreachesSince' | 'openCases' | 'countReportsSince' | 'caseTimelinesSince'>;

/** Thrown inside the transaction when the breach of this opening is already recorded. */
class AlreadyRecorded extends Error {}

type TimelineEvent = CaseTimeline['events'][number];

/** The queue-health reads and the SLA breach record of the MongoDB store. */
export function mongoQueueHealth(client: MongoClient, c: Collections): QueueHealthMethods {
  return {
    // The breach and the case's flag commit together, as in the SQLite store.
    async recordSlaBreach(b: SlaBreach) {
      try {
        return await runTransaction(client, async (s) => {
            const kase = await c.cases.findOne({ _id: b.caseId }, { projection: { userId: 1 }, session: s });
            // An unknown case records nothing, as in the SQLite store.
            if (!kase) return false;
            try {
              await c.slaBreaches.insertOne(
                { _id: `${b.caseId}:${b.openingId}`, caseId: b.caseId, userId: kase.userId, openingId: b.openingId, category: b.category, at: b.at },
                { session: s },
              );
            } catch (err) {
              if (isDuplicateKey(err)) throw new AlreadyRecorded();
              throw err;
            }
            // userId: the shard key of a sharded `cases` (docs/scaling.md).
            await c.cases.updateOne({ _id: b.caseId, userId: kase.userId }, { $set: { slaBreached: true } }, { session: s });
            return true;
          });
      } catch (err) {
        if (err instanceof AlreadyRecorded) return false;
        throw err;
      }
    },
    async slaBreachesSince(since) {
      // Through sla_breaches_by_time; ties sorted here (the whole answer is held anyway).
      const docs = await c.slaBreaches.find({ at: { $gte: since } }).sort({ at: 1 }).toArray();
      const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      docs.sort((a, b) => a.at - b.at || text(a.caseId, b.caseId) || text(a.openingId, b.openingId));
      return docs.map((d) => ({ caseId: d.caseId, openingId: d.openingId, category: d.category, at: d.at }));
    },
    async openCases(afterId, limit): Promise<OpenCaseSummary[]> {
      // limit(0) means "no limit" to MongoDB; a limit of 0 lists nothing, as in SQL.
      if (limit <= 0) return [];
      // Through cases_open_by_id: only open cases, from afterId on.
      const docs = await c.cases
        .find({ open: true, _id: { $gt: afterId } }, { projection: { _id: 1, userId: 1, state: 1, claimedBy: 1, createdAt: 1, slaBreached: 1 } })
        .sort({ _id: 1 })
        .limit(limit)
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
      // One aggregation on the server, at one snapshot: the cases with a decision in the window
      // (case_events_by_time), each joined to its case and its whole history (case_events_by_case).
      // No list of case ids travels in a command, and the answer streams back in batches.
      return client.withSession({ snapshot: true }, (session) =>
        c.events
          .aggregate<CaseTimeline & { events: TimelineEvent[] }>(
            [
              { $match: { at: { $gte: since } } },
              { $group: { _id: '$caseId' } },
              { $sort: { _id: 1 } },
              { $lookup: { from: c.cases.collectionName, localField: '_id', foreignField: '_id', as: 'case', pipeline: [{ $project: { userId: 1, createdAt: 1 } }] } },
              { $unwind: '$case' },
              {
                $lookup: {
                  from: c.events.collectionName,
                  localField: '_id',
                  foreignField: 'caseId',
                  as: 'events',
                  pipeline: [{ $sort: { seq: 1 } }, { $project: { _id: 0, decisionId: 1, action: 1, moderatorId: 1, at: 1 } }],
                },
              },
              { $project: { _id: 0, caseId: '$_id', userId: '$case.userId', createdAt: '$case.createdAt', events: 1 } },
            ],
            { session },
          )
          .toArray(),
      );
    },
  };
}
