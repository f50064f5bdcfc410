import type { AnyBulkWriteOperation, ClientSession, MongoClient } from 'mongodb';
import type { Collections } from './collections.js';
import type { ReporterStatsDoc } from './documents.js';
import { isDuplicateKey } from './driver-errors.js';
import { runTransaction } from './transactions.js';
import { appendOutcomes, type PendingOutcome } from './reporter-outcomes.js';

/** The migrations document recording that reporter credibility was counted from past decisions. */
export const REPORTER_STATS_BACKFILL = 'reporter_stats_backfill';

/** Starts of the backfill lost to another process's concurrent writes before giving up (the process restarts). */
const MAX_RACES = 5;

/**
 * Reporter credibility on a database that used MongoDB before triage: each reporter's approved and
 * dismissed cases, counted from the cases already decided (the SQLite store's migration 7 does the
 * same). Runs once: the count and its `migrations` document commit in one transaction.
 *
 * Idempotent and safe when several processes start at once: the transaction re-reads the
 * document, and inserting it fails (duplicate key or write conflict) for all but one concurrent
 * run. The counts are set, not added, from one snapshot of the decided cases, so decisions a newer
 * process counted before the backfill (during a rolling upgrade) are not counted twice; a decision
 * committing during the backfill writes the same reporter documents, so one of the two
 * transactions conflicts and retries after the other.
 *
 * One transaction holds every reporter's count: MongoDB limits a transaction to 60 s by default
 * (transactionLifetimeLimitSeconds), which bounds the decided history it can count at once.
 */
export async function backfillReporterStats(client: MongoClient, c: Collections): Promise<void> {
  if (await c.migrations.findOne({ _id: REPORTER_STATS_BACKFILL })) return;
  for (let race = 1; ; race++) {
    try {
      await runTransaction(client, (s) => backfillIn(c, s));
      return;
    } catch (err) {
      // Another process recorded the backfill, or created a reporter's document, since our snapshot.
      if (!isDuplicateKey(err) || race >= MAX_RACES) throw err;
      if (await c.migrations.findOne({ _id: REPORTER_STATS_BACKFILL })) return;
    }
  }
}

async function backfillIn(c: Collections, session: ClientSession): Promise<void> {
  if (await c.migrations.findOne({ _id: REPORTER_STATS_BACKFILL }, { session })) return;
  // Claim the run first: a concurrent run's insert of the same _id conflicts with this one.
  await c.migrations.insertOne({ _id: REPORTER_STATS_BACKFILL, doneAt: Date.now() }, { session });
  // A recount: counts written before it (by a newer process during a rolling upgrade) are replaced.
  await c.reporterStats.updateMany({}, { $set: { approved: 0, dismissed: 0 } }, { session });
  // Each distinct reporter of each decided case once, then counted per reporter and state.
  const counts = c.cases.aggregate<{ _id: { platform: string; reporterId: string }; approved: number; dismissed: number }>(
    [
      { $match: { state: { $in: ['approved', 'dismissed'] } } },
      { $lookup: { from: c.reports.collectionName, localField: '_id', foreignField: 'caseId', as: 'r', pipeline: [{ $project: { _id: 0, reporterPlatform: 1, reporterId: 1 } }] } },
      { $unwind: '$r' },
      { $group: { _id: { caseId: '$_id', platform: '$r.reporterPlatform', reporterId: '$r.reporterId' }, state: { $first: '$state' } } },
      {
        $group: {
          _id: { platform: '$_id.platform', reporterId: '$_id.reporterId' },
          approved: { $sum: { $cond: [{ $eq: ['$state', 'approved'] }, 1, 0] } },
          dismissed: { $sum: { $cond: [{ $eq: ['$state', 'dismissed'] }, 1, 0] } },
        },
      },
    ],
    { session },
  );
  const BATCH = 1_000;
  let ops: AnyBulkWriteOperation<ReporterStatsDoc>[] = [];
  for await (const r of counts) {
    ops.push({
      updateOne: {
        filter: { platform: r._id.platform, reporterId: r._id.reporterId },
        update: { $set: { approved: r.approved, dismissed: r.dismissed } },
        upsert: true,
      },
    });
    if (ops.length === BATCH) {
      await c.reporterStats.bulkWrite(ops, { session, ordered: true });
      ops = [];
    }
  }
  if (ops.length > 0) await c.reporterStats.bulkWrite(ops, { session, ordered: true });
}

/** The migrations document recording that the outcomes of reports decided before them were recorded. */
export const REPORT_OUTCOMES_BACKFILL = 'report_outcomes_backfill';

/**
 * Reporter outcomes on a database that used MongoDB before them: each report of a case already
 * decided gets its outcome, in the order the cases were decided (the SQLite store's migration 11
 * does the same). Runs once, like backfillReporterStats: the outcomes and the `migrations`
 * document commit in one transaction, and concurrent starts conflict on that document.
 *
 * A report that already has an outcome (recorded by a process of this version that decided its
 * case before the backfill ran) keeps it. The seqs come from the outcome counter inside the
 * transaction, so a decision committing meanwhile conflicts with the backfill and one of the two
 * retries after the other: seq order stays commit order. Bounded like the other backfill by
 * MongoDB's transaction lifetime (60 s by default) and the aggregation's in-memory sort.
 */
export async function backfillReportOutcomes(client: MongoClient, c: Collections): Promise<void> {
  if (await c.migrations.findOne({ _id: REPORT_OUTCOMES_BACKFILL })) return;
  for (let race = 1; ; race++) {
    try {
      await runTransaction(client, (s) => backfillOutcomesIn(c, s));
      return;
    } catch (err) {
      if (!isDuplicateKey(err) || race >= MAX_RACES) throw err;
      if (await c.migrations.findOne({ _id: REPORT_OUTCOMES_BACKFILL })) return;
    }
  }
}

async function backfillOutcomesIn(c: Collections, session: ClientSession): Promise<void> {
  if (await c.migrations.findOne({ _id: REPORT_OUTCOMES_BACKFILL }, { session })) return;
  await c.migrations.insertOne({ _id: REPORT_OUTCOMES_BACKFILL, doneAt: Date.now() }, { session });
  // Each report of each decided case without an outcome yet, with the time of the decision that
  // put its case in its state (the case's last change, for a case without that event).
  const outcomes = c.cases.aggregate<PendingOutcome>(
    [
      { $match: { state: { $in: ['approved', 'dismissed'] } } },
      {
        $lookup: {
          from: c.events.collectionName,
          let: { caseId: '$_id', state: '$state' },
          pipeline: [
            { $match: { $expr: { $and: [{ $eq: ['$caseId', '$$caseId'] }, { $eq: ['$toState', '$$state'] }] } } },
            { $sort: { seq: -1 } },
            { $limit: 1 },
            { $project: { _id: 0, at: 1 } },
          ],
          as: 'decision',
        },
      },
      { $lookup: { from: c.reports.collectionName, localField: '_id', foreignField: 'caseId', as: 'r', pipeline: [{ $project: { reporterPlatform: 1, reporterId: 1, receivedAt: 1 } }] } },
      { $unwind: '$r' },
      { $lookup: { from: c.reportOutcomes.collectionName, localField: 'r._id', foreignField: '_id', as: 'known', pipeline: [{ $project: { _id: 1 } }] } },
      { $match: { known: { $size: 0 } } },
      {
        $project: {
          _id: '$r._id',
          platform: '$r.reporterPlatform',
          reporterId: '$r.reporterId',
          caseId: '$_id',
          actioned: { $eq: ['$state', 'approved'] },
          reopened: { $literal: false },
          at: { $ifNull: [{ $first: '$decision.at' }, '$updatedAt'] },
          receivedAt: '$r.receivedAt',
        },
      },
      { $sort: { at: 1, receivedAt: 1, _id: 1 } },
      { $unset: 'receivedAt' },
    ],
    { session },
  );
  const BATCH = 1_000;
  let batch: PendingOutcome[] = [];
  for await (const o of outcomes) {
    batch.push(o);
    if (batch.length === BATCH) {
      await appendOutcomes(c, session, batch);
      batch = [];
    }
  }
  await appendOutcomes(c, session, batch);
}

/**
 * The bound moderator of trusted systems' sanctions stored before it was recorded (the SQLite
 * store's migration 15 does the same), from the key that created each: a key's binding never
 * changes. Runs at every start, idempotent: one update per bound key, finding only its sanctions
 * still without the field (sanctions_by_idempotency_key_v2, its partial filter repeated), so a
 * sanction stored by an earlier version during a rolling upgrade is covered at the next start.
 */
export async function backfillBoundModerators(c: Collections): Promise<void> {
  for (const key of await c.apiKeys.find({ moderatorId: { $type: 'string' } }, { projection: { _id: 1, moderatorId: 1 } }).toArray()) {
    await c.sanctions.updateMany(withoutBoundModerator(key._id), { $set: { boundModeratorId: key.moderatorId! } });
  }
}

/** A key's sanctions stored before their bound moderator was recorded. */
export const withoutBoundModerator = (keyId: string) => ({ moderatorId: keyId, idempotencyKey: { $type: 'string' as const }, boundModeratorId: { $exists: false } });
