import type { ClientSession, Filter, MongoClient } from 'mongodb';
import type { AppealQuery, AppealRecord, AppealTransition, NewAppeal } from '@rm/storage';
import type { Store } from '@rm/storage';
import type { Collections } from './collections.js';
import { toAppeal, toAppealEvent, type AppealDoc } from './documents.js';
import { isDuplicateKey } from './driver-errors.js';
import { caseIdIs, numberIn } from './partial-filters.js';
import { appendFeedEvents, endSanction, feedEvent, recordEffects, type PendingFeedEvent } from './sanctions.js';
import { recordUncount, settle } from './settlements.js';
import { runTransaction } from './transactions.js';

type AppealMethods = Pick<
  Store,
  'createAppeal' | 'getAppeal' | 'listAppeals' | 'transitionAppeal' | 'findAppealDecision' | 'appealHistory' | 'recordAppealSlaBreach' | 'appealsSince'
>;

/**
 * Appeals on MongoDB. Submissions and transitions are transactions (snapshot reads, majority
 * writes, as decisions): an appeal's compare-and-set, its audit event and, when it resolves the
 * appeal, the sanction's lift, the reporters' counts, the effects and the feed events (last, as
 * every sanction-changing transaction: see appendFeedEvents) commit together or not at all.
 */
export function appealMethods(client: MongoClient, c: Collections): AppealMethods {
  const inTransaction = <T>(work: (s: ClientSession) => Promise<T>) => runTransaction(client, work);

  const create = async (a: NewAppeal, s: ClientSession): Promise<{ appeal: AppealRecord; created: boolean }> => {
    const existing = await c.appeals.findOne({ sanctionId: a.sanctionId }, { session: s });
    if (existing) return { appeal: toAppeal(existing), created: false };
    const { at, effects, id, ...fields } = a;
    const doc: AppealDoc = {
      _id: id,
      ...fields,
      state: 'open',
      claimedBy: null,
      version: 1,
      createdAt: at,
      updatedAt: at,
      decidedAt: null,
      decidedBy: null,
      decisionReason: null,
      slaBreached: false,
    };
    await c.appeals.insertOne(doc, { session: s });
    await c.appealEvents.insertOne(
      { appealId: a.id, decisionId: `submit-${a.id}`, seq: 1, action: 'submit', moderatorId: null, fromState: null, toState: 'open', reason: null, at, result: null },
      { session: s },
    );
    await recordEffects(c, s, a.id, effects, at);
    return { appeal: toAppeal(doc), created: true };
  };

  const transition = async (t: AppealTransition, s: ClientSession): Promise<AppealRecord | null> => {
    const r = t.resolution;
    const updated = await c.appeals.findOneAndUpdate(
      { _id: t.appealId, version: t.expectedVersion, state: t.expectedState },
      {
        $set: {
          state: t.next.state,
          claimedBy: t.next.claimedBy,
          updatedAt: Date.now(),
          ...(r && { decidedAt: t.event.at, decidedBy: t.event.moderatorId, decisionReason: r.reason }),
        },
        $inc: { version: 1 },
      },
      { session: s, returnDocument: 'after' },
    );
    if (!updated) return null;
    await c.appealEvents.insertOne(
      { appealId: t.appealId, seq: updated.version, ...t.event, fromState: t.expectedState, toState: t.next.state, result: t.event.result ?? null },
      { session: s },
    );
    const feed: PendingFeedEvent[] = [];
    if (r?.outcome === 'overturned') {
      const before = await c.sanctions.findOne({ _id: updated.sanctionId }, { session: s });
      const lifted = await endSanction(c, s, 'lifted', { _id: updated.sanctionId }, { at: t.event.at, moderatorId: t.event.moderatorId, reason: r.reason, cause: 'appeal' });
      if (lifted?.event) feed.push(lifted.event);
      // As the SQLite store: the approval's count is taken back unless an undo or a lift ended the sanction first.
      if (before && before.state !== 'lifted' && typeof before.caseId === 'string') await recordUncount(c, s, t.event.decisionId, before.caseId, t.event.at);
    }
    if (r) {
      const sanction = await c.sanctions.findOne({ _id: updated.sanctionId }, { session: s });
      if (sanction) feed.push(feedEvent('appeal.resolved', sanction, t.event.at, { appeal: { id: t.appealId, outcome: r.outcome, reason: r.reason } }));
    }
    await recordEffects(c, s, t.event.decisionId, t.effects, t.event.at);
    // Last: the feed counter is held from here to the commit only.
    await appendFeedEvents(c, s, feed);
    return toAppeal(updated);
  };

  return {
    async createAppeal(a) {
      try {
        return await inTransaction((s) => create(a, s));
      } catch (err) {
        // A concurrent submission for the same sanction committed first: answer its appeal.
        if (!isDuplicateKey(err)) throw err;
        const existing = await c.appeals.findOne({ sanctionId: a.sanctionId }, { readPreference: 'primary' });
        if (!existing) throw err;
        return { appeal: toAppeal(existing), created: false };
      }
    },
    async getAppeal(id) {
      const doc = await c.appeals.findOne({ _id: id });
      return doc ? toAppeal(doc) : null;
    },
    async listAppeals(query: AppealQuery) {
      // limit(0) means "no limit" to MongoDB; a limit of 0 lists nothing, as in SQL.
      if (query.limit <= 0 || query.states.length === 0) return [];
      const filter: Filter<AppealDoc> = { state: { $in: query.states } };
      if (query.category !== undefined) filter.category = query.category;
      if (query.userId !== undefined) filter.userId = query.userId;
      // appeals_by_case is partial on a string caseId: the filter repeats it (the console polls a case's appeals).
      if (query.caseId !== undefined) Object.assign(filter, caseIdIs(query.caseId));
      if (query.sanctionId !== undefined) filter.sanctionId = query.sanctionId;
      if (query.after) filter.$or = [{ createdAt: { $gt: query.after.createdAt } }, { createdAt: query.after.createdAt, _id: { $gt: query.after.id } }];
      const docs = await c.appeals.find(filter).sort({ createdAt: 1, _id: 1 }).limit(query.limit).toArray();
      return docs.map(toAppeal);
    },
    async transitionAppeal(t) {
      const appeal = await inTransaction((s) => transition(t, s));
      // The case's reporters uncounted a page per transaction (settlements.ts), as a decision's are.
      if (appeal && t.resolution?.outcome === 'overturned') await settle(client, c, t.event.decisionId);
      return appeal;
    },
    async findAppealDecision(decisionId) {
      const doc = await c.appealEvents.findOne({ decisionId });
      return doc ? toAppealEvent(doc) : null;
    },
    async appealHistory(appealId) {
      return (await c.appealEvents.find({ appealId }).sort({ seq: 1 }).toArray()).map(toAppealEvent);
    },
    async recordAppealSlaBreach(appealId) {
      const result = await c.appeals.updateOne({ _id: appealId, slaBreached: false }, { $set: { slaBreached: true } });
      return result.modifiedCount > 0;
    },
    async appealsSince(since) {
      // One branch through appeals_by_time, the other through appeals_decided (partial: its `$type`
      // repeated). Sorted here, not by the server: the whole answer is held anyway, and a blocking
      // sort of a long window would meet the server's memory limit.
      const docs = await c.appeals.find({ $or: [{ createdAt: { $gte: since } }, { decidedAt: numberIn({ $gte: since }) }] }).toArray();
      return docs.sort((a, b) => a.createdAt - b.createdAt || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0)).map(toAppeal);
    },
  };
}
