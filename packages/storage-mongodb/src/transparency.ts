import type { Document, MongoClient } from 'mongodb';
import type { AutomatedDecision } from '@rm/contracts';
import type { Store } from '@rm/storage';
import type { TransparencyFigures } from '@rm/storage';
import { decodeStatementCursor, encodeStatementCursor } from '@rm/storage/adapter';
import type { Collections } from './collections.js';
import { toSanction } from './sanctions.js';
import { numberIn } from './partial-filters.js';

type TransparencyMethods = Pick<Store, 'transparencyFigures' | 'statementsIn'>;

/** When a sanction took effect: a wave's effectiveAt, else its creation. */
const START = { $ifNull: ['$effectiveAt', '$createdAt'] };
/** Lifted before its wave started: it never took effect. */
const LIFTED_BEFORE_START = { $lt: [{ $ifNull: ['$liftedAt', Number.MAX_SAFE_INTEGER] }, { $ifNull: ['$effectiveAt', -1] }] };

/**
 * The transparency figures and the statements' pages on MongoDB, each aggregated in the server
 * through the time indexes (reports_by_time, case_events_by_time, sanctions_by_created,
 * sanctions_by_effective, sanctions_by_start).
 */
export function transparencyMethods(_client: MongoClient, c: Collections): TransparencyMethods {
  async function median(from: number, to: number): Promise<number | null> {
    const decided = { at: { $gte: from, $lt: to }, action: { $in: ['approve' as const, 'dismiss' as const] } };
    const n = await c.events.countDocuments(decided);
    if (n === 0) return null;
    // The case opened on its first report (createdAt is that report's receipt).
    const rows = await c.events
      .aggregate<{ d: number }>([
        { $match: decided },
        { $lookup: { from: c.cases.collectionName, localField: 'caseId', foreignField: '_id', as: 'case' } },
        { $project: { _id: 0, d: { $subtract: ['$at', { $arrayElemAt: ['$case.createdAt', 0] }] } } },
        { $sort: { d: 1 } },
        { $skip: Math.floor((n - 1) / 2) },
        { $limit: n % 2 === 1 ? 1 : 2 },
      ])
      .toArray();
    if (rows.length === 0) return null;
    return Math.round(rows.reduce((a, r) => a + r.d, 0) / rows.length);
  }

  /** Appeals filed in the period (appeals_by_time) and decided in it (appeals_decided), with the median time to decision. */
  async function appeals(from: number, to: number): Promise<TransparencyFigures['appeals']> {
    const decided = { decidedAt: numberIn({ $gte: from, $lt: to }), state: { $in: ['upheld' as const, 'overturned' as const] } };
    const [received, byState] = await Promise.all([
      c.appeals.countDocuments({ createdAt: { $gte: from, $lt: to } }),
      c.appeals.aggregate<{ _id: 'upheld' | 'overturned'; count: number }>([{ $match: decided }, { $group: { _id: '$state', count: { $sum: 1 } } }]).toArray(),
    ]);
    const upheld = byState.find((g) => g._id === 'upheld')?.count ?? 0;
    const overturned = byState.find((g) => g._id === 'overturned')?.count ?? 0;
    const n = upheld + overturned;
    if (n === 0) return { received, upheld, overturned, medianTimeToDecisionMs: null };
    const rows = await c.appeals
      .aggregate<{ d: number }>([
        { $match: decided },
        { $project: { _id: 0, d: { $subtract: ['$decidedAt', '$createdAt'] } } },
        { $sort: { d: 1 } },
        { $skip: Math.floor((n - 1) / 2) },
        { $limit: n % 2 === 1 ? 1 : 2 },
      ])
      .toArray();
    const medianTimeToDecisionMs = rows.length === 0 ? null : Math.round(rows.reduce((a, r) => a + r.d, 0) / rows.length);
    return { received, upheld, overturned, medianTimeToDecisionMs };
  }

  return {
    async transparencyFigures(query): Promise<TransparencyFigures> {
      const { from, to } = query;
      const inPeriod = { $gte: from, $lt: to };
      const reportsPipeline: Document[] = [
        { $match: { receivedAt: inPeriod } },
        {
          $project: {
            platform: '$reporterPlatform',
            answer: {
              $toLower: {
                $trim: {
                  input: {
                    $ifNull: [{ $arrayElemAt: [{ $map: { input: { $filter: { input: '$answers', cond: { $eq: ['$$this.questionId', query.categoryQuestionId] } } }, in: '$$this.answer' } }, 0] }, ''],
                  },
                },
              },
            },
          },
        },
        { $group: { _id: { category: { $cond: [{ $in: ['$answer', query.categories] }, '$answer', query.defaultCategory] }, platform: '$platform' }, count: { $sum: 1 } } },
        { $sort: { '_id.category': 1, '_id.platform': 1 } },
      ];
      const sanctionsPipeline: Document[] = [
        // Either index finds the candidates; the exact start and the state are checked next.
        { $match: { $or: [{ createdAt: inPeriod }, { effectiveAt: numberIn(inPeriod) }] } },
        { $match: { state: { $ne: 'scheduled' }, $expr: { $and: [{ $gte: [START, from] }, { $lt: [START, to] }, { $not: [LIFTED_BEFORE_START] }] } } },
        {
          $group: {
            _id: {
              kind: '$kind',
              ground: { $ifNull: ['$statement.ground.type', null] },
              detection: { $ifNull: ['$statement.automation.automatedDetection', null] },
              decision: { $ifNull: ['$statement.automation.automatedDecision', null] },
            },
            count: { $sum: 1 },
          },
        },
        { $sort: { '_id.kind': 1, '_id.ground': 1, '_id.detection': 1, '_id.decision': 1 } },
      ];
      const [reports, decisions, sanctions, medianMs, appealFigures] = await Promise.all([
        c.reports.aggregate<{ _id: { category: string; platform: string }; count: number }>(reportsPipeline).toArray(),
        c.events.aggregate<{ _id: string; count: number }>([{ $match: { at: inPeriod, action: { $in: ['approve', 'dismiss', 'undo'] } } }, { $group: { _id: '$action', count: { $sum: 1 } } }]).toArray(),
        c.sanctions
          .aggregate<{ _id: { kind: string; ground: 'terms' | 'illegal' | null; detection: boolean | null; decision: AutomatedDecision | null }; count: number }>(sanctionsPipeline)
          .toArray(),
        median(from, to),
        appeals(from, to),
      ]);
      const counted = (action: string) => decisions.find((d) => d._id === action)?.count ?? 0;
      return {
        reports: reports.map((r) => ({ category: r._id.category, platform: r._id.platform, count: r.count })),
        decisions: { approved: counted('approve'), dismissed: counted('dismiss'), undone: counted('undo') },
        sanctions: sanctions.map((s) => ({ kind: s._id.kind, ground: s._id.ground, automatedDetection: s._id.detection, automatedDecision: s._id.decision, count: s.count })),
        medianTimeToDecisionMs: medianMs,
        appeals: appealFigures,
      };
    },
    async statementsIn(period, cursor, limit) {
      // limit(0) means "no limit" to MongoDB; a limit of 0 lists nothing, as in SQL.
      if (limit <= 0) return { sanctions: [], cursor };
      const after = cursor === null ? { at: period.from, id: '' } : decodeStatementCursor(cursor);
      // The statement's `from` is the sanction's start (effectiveAt or creation), indexed with _id.
      const docs = await c.sanctions
        .find({
          // The range bounds the index scan; the $or places the cursor within it.
          'statement.restriction.from': { $gte: after.at, $lt: period.to },
          $or: [{ 'statement.restriction.from': { $gt: after.at, $lt: period.to } }, { 'statement.restriction.from': after.at, _id: { $gt: after.id } }],
          state: { $ne: 'scheduled' },
          statement: { $type: 'object' },
        })
        .sort({ 'statement.restriction.from': 1, _id: 1 })
        .limit(limit)
        .toArray();
      const last = docs.at(-1);
      // One lifted before its wave started never took effect: left out, the cursor still passes it.
      const shown = docs.filter((d) => !(d.effectiveAt != null && d.liftedAt != null && d.liftedAt < d.effectiveAt));
      return {
        sanctions: shown.map(toSanction),
        cursor: docs.length < limit || !last ? null : encodeStatementCursor(last.statement!.restriction.from, last._id),
      };
    },
  };
}
