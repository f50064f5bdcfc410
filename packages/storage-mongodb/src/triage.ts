import type { ClientSession, Document, MongoClient } from 'mongodb';
import { DECIDED_STATES, OPEN_STATES, SLA_BREACHED_FLAG, type CaseTriageRecord, type ReporterRecord, type Transition } from '@rm/storage';
import type { Store } from '@rm/storage';
import type { Collections } from './collections.js';
import { toCase, toReport, type CaseDoc } from './documents.js';

type TriageMethods = Pick<Store, 'caseReports' | 'reporterStats' | 'getCaseTriage' | 'caseTriages' | 'setCaseTriage' | 'listCases' | 'scanReports'>;

const decided = (s: string) => (DECIDED_STATES as readonly string[]).includes(s);

/** A reporter's credibility change: the decided state counted, +1 for a decision, -1 for its undo. */
export type ReporterCount = { state: 'approved' | 'dismissed'; step: 1 | -1 };

/**
 * What a transition does to its reporters' credibility: a transition into approved or dismissed
 * counts each distinct reporter of the case once, the undo of one uncounts them (the same rule as
 * the SQLite store); any other, nothing.
 */
export function reporterCount(t: Pick<Transition, 'expectedState'> & { next: Pick<Transition['next'], 'state'> }): ReporterCount | null {
  if (decided(t.next.state) && !decided(t.expectedState)) return { state: t.next.state as ReporterCount['state'], step: 1 };
  if (decided(t.expectedState) && !decided(t.next.state)) return { state: t.expectedState as ReporterCount['state'], step: -1 };
  return null;
}

/** In a transaction: applies `count` to each of `reporters` once. */
export async function countReporters(c: Collections, reporters: ReporterRecord[], count: ReporterCount, session: ClientSession): Promise<void> {
  if (reporters.length === 0) return;
  // An update pipeline, not $inc: a count never goes below zero (an undo of a decision counted
  // before the reporter's document existed leaves 0, where -1 would read as full credibility). An
  // upsert starts from the filter's fields, so the missing counts read as 0.
  const plus = (field: 'approved' | 'dismissed', n: number) => ({ $max: [0, { $add: [{ $ifNull: [`$${field}`, 0] }, n] }] });
  const update = [{ $set: { approved: plus('approved', count.state === 'approved' ? count.step : 0), dismissed: plus('dismissed', count.state === 'dismissed' ? count.step : 0) } }];
  await c.reporterStats.bulkWrite(
    reporters.map((r) => ({ updateOne: { filter: { platform: r.platform, reporterId: r.id }, update, upsert: true } })),
    { session, ordered: true },
  );
}

const triageOf = (d: CaseDoc): CaseTriageRecord | null => (d.triage ? { caseId: d._id, ...d.triage } : null);

/** Triage reads and writes of the MongoDB store. A case's triage lives on its document (`triage`). */
export function triageMethods(client: MongoClient, c: Collections): TriageMethods {
  return {
    async caseReports(caseId) {
      return (await c.reports.find({ caseId }).sort({ receivedAt: 1, _id: 1 }).toArray()).map(toReport);
    },
    async reporterStats(reporters) {
      if (reporters.length === 0) return [];
      const docs = await c.reporterStats.find({ $or: reporters.map((r) => ({ platform: r.platform, reporterId: r.id })) }).toArray();
      return docs.map((d) => ({ platform: d.platform, id: d.reporterId, approved: d.approved, dismissed: d.dismissed }));
    },
    async getCaseTriage(caseId) {
      const doc = await c.cases.findOne({ _id: caseId }, { projection: { triage: 1 } });
      return doc ? triageOf(doc) : null;
    },
    async caseTriages(caseIds) {
      // Ids that are not strings name nothing (ignoreUndefined would turn one into null).
      const ids = [...new Set(caseIds.filter((id) => typeof id === 'string'))];
      if (ids.length === 0) return [];
      const docs = await c.cases.find({ _id: { $in: ids }, triage: { $exists: true } }, { projection: { triage: 1 } }).toArray();
      return docs.map((d) => triageOf(d)!);
    },
    async setCaseTriage(t) {
      const { caseId, ...triage } = t;
      // Only the triage field: the case's state and version belong to transitions. An unknown case
      // is refused, as SQLite's foreign key refuses it.
      const result = await c.cases.updateOne({ _id: caseId }, { $set: { triage } });
      if (result.matchedCount === 0) throw new Error(`case ${caseId} not found: its triage was not stored`);
    },
    async listCases(query) {
      const match: Document = { state: { $in: query.states }, triage: { $exists: true } };
      if (query.category !== undefined) match['triage.categories'] = query.category;
      // The SLA flag is the case's own (set with its breach), the others the triage's.
      if (query.flag === SLA_BREACHED_FLAG) match['slaBreached'] = true;
      else if (query.flag !== undefined) match['triage.flags'] = query.flag;
      const sort =
        query.sort === 'priority' ? { rank: -1, createdAt: 1, _id: 1 } : query.sort === 'oldest' ? { createdAt: 1, _id: 1 } : { createdAt: -1, _id: -1 };
      // rank = priority plus, for an open case, agePerHour × hours since it opened (as the API shows it).
      const age = { $divide: [{ $multiply: [query.agePerHour, { $subtract: [query.now, '$createdAt'] }] }, 3_600_000] };
      const rank = { $add: ['$triage.priority', { $cond: [{ $in: ['$state', [...OPEN_STATES]] }, age, 0] }] };
      // The count and the page from one snapshot (one after the other: a snapshot session fixes its
      // time at its first read), so they agree while cases change. Both through cases_triaged.
      const { total, docs } = await client.withSession({ snapshot: true }, async (session) => ({
        total: await c.cases.countDocuments(match, { session }),
        docs:
          query.page.limit > 0
            ? await c.cases
                .aggregate<CaseDoc>(
                  [{ $match: match }, ...(query.sort === 'priority' ? [{ $addFields: { rank } }] : []), { $sort: sort }, { $skip: query.page.offset }, { $limit: query.page.limit }],
                  { session },
                )
                .toArray()
            : [],
      }));
      return { total, cases: docs.map((d) => ({ case: toCase(d), triage: triageOf(d)! })) };
    },
    async scanReports(cursor, limit) {
      // limit(0) means "no limit" to MongoDB; a limit of 0 lists nothing, as in SQL.
      if (limit <= 0) return { reports: [], cursor: null };
      // By report id: unique and never changed, so every report stored before the scan began is
      // on exactly one page, and none twice. On the primary, whatever the URL's read preference: a
      // lagging secondary could still miss a report acknowledged before the scan began. A report
      // stored during the scan is returned only if its id sorts after the cursor (docs/decisions.md).
      const docs = await c.reports
        .find(cursor === null ? {} : { _id: { $gt: cursor } }, { readPreference: 'primary' })
        .sort({ _id: 1 })
        .limit(limit)
        .toArray();
      const last = docs.at(-1);
      return { reports: docs.map(toReport), cursor: docs.length === limit && last ? last._id : null };
    },
  };
}
