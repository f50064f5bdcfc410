import type { ClientSession, MongoClient, TransactionOptions } from 'mongodb';
import type { EffectRecord, NewEffect, SanctionEnd, SanctionEvent, SanctionEventType, SanctionRecord } from '../records.js';
import type { Store } from '../store.js';
import type { Collections } from './collections.js';

/** A sanction; `_id` is its id (the approval's decision id). */
export type SanctionDoc = Omit<SanctionRecord, 'id'> & { _id: string };
const toSanction = (d: SanctionDoc): SanctionRecord => ({
  id: d._id,
  userId: d.userId,
  caseId: d.caseId,
  kind: d.kind,
  reason: d.reason ?? null,
  moderatorId: d.moderatorId,
  createdAt: d.createdAt,
  expiresAt: d.expiresAt ?? null,
  state: d.state,
  liftedAt: d.liftedAt ?? null,
  liftedBy: d.liftedBy ?? null,
  liftReason: d.liftReason ?? null,
});

/** A feed event; `_id` is its seq. */
export type SanctionEventDoc = Omit<SanctionEvent, 'seq'> & { _id: number };
const toFeedEvent = (d: SanctionEventDoc): SanctionEvent => ({
  seq: d._id,
  type: d.type,
  sanctionId: d.sanctionId,
  userId: d.userId,
  caseId: d.caseId,
  expiresAt: d.expiresAt ?? null,
  at: d.at,
});

export type EffectDoc = Omit<EffectRecord, 'id'> & {
  _id: string;
  /**
   * Its index among the effects its source recorded: a source's effects share createdAt and their
   * ids are the caller's (`…:10-x` sorts before `…:2-x`), so this keeps them in recording order.
   * Absent on effects recorded by earlier versions.
   */
  ordinal?: number;
};
const toEffect = (d: EffectDoc): EffectRecord => ({
  id: d._id,
  sourceId: d.sourceId,
  kind: d.kind,
  payload: d.payload ?? null,
  createdAt: d.createdAt,
  doneAt: d.doneAt ?? null,
});

/** The counter document every sanction-changing transaction updates (see appendFeedEvent). */
export const FEED_COUNTER = 'sanction_feed';

/** Majority writes, snapshot reads, on the primary: as decisions. */
export const SANCTION_TRANSACTION: TransactionOptions = {
  readConcern: { level: 'snapshot' },
  writeConcern: { w: 'majority' },
  readPreference: 'primary',
};

/**
 * In a transaction: the next feed seq and its event. Every transaction that changes a sanction
 * updates the one counter document, so two of them conflict (the later one is aborted by the
 * server and retried by withTransaction once the first has committed): they commit one after the
 * other, in seq order. A reader at majority read concern therefore never sees seq n+1 without
 * seq n, and a reader paging by seq misses nothing.
 */
async function appendFeedEvent(c: Collections, session: ClientSession, type: SanctionEventType, s: SanctionDoc, at: number): Promise<void> {
  const counter = await c.counters.findOneAndUpdate({ _id: FEED_COUNTER }, { $inc: { value: 1 } }, { upsert: true, returnDocument: 'after', session });
  if (!counter) throw new Error('the sanction feed counter was not returned by its update');
  await c.sanctionEvents.insertOne({ _id: counter.value, type, sanctionId: s._id, userId: s.userId, caseId: s.caseId, expiresAt: s.expiresAt, at }, { session });
}

/** In a transaction: the effects owed by a change, once each (an id already recorded is kept). */
export async function recordEffects(c: Collections, session: ClientSession, sourceId: string, effects: NewEffect[] | undefined, at: number): Promise<void> {
  for (const [ordinal, e] of (effects ?? []).entries()) {
    await c.effects.updateOne(
      { _id: e.id },
      { $setOnInsert: { sourceId, kind: e.kind, payload: e.payload ?? null, createdAt: at, doneAt: null, ordinal } },
      { upsert: true, session },
    );
  }
}

/** In the decision's transaction: the approval's sanction and its feed event. */
export async function createSanction(
  c: Collections,
  session: ClientSession,
  s: { id: string; userId: string; caseId: string; reason: string | null; moderatorId: string; at: number; expiresAt: number | null },
): Promise<void> {
  const doc: SanctionDoc = {
    _id: s.id,
    userId: s.userId,
    caseId: s.caseId,
    kind: 'ban',
    reason: s.reason,
    moderatorId: s.moderatorId,
    createdAt: s.at,
    expiresAt: s.expiresAt,
    state: 'active',
    liftedAt: null,
    liftedBy: null,
    liftReason: null,
  };
  await c.sanctions.insertOne(doc, { session });
  await appendFeedEvent(c, session, 'sanction.created', doc, s.at);
}

/** In a transaction: ends the sanction if it is still active (and, to expire, due); null otherwise. */
async function endSanction(
  c: Collections,
  session: ClientSession,
  state: 'lifted' | 'expired',
  filter: { _id: string } | { caseId: string },
  end: Omit<SanctionEnd, 'sanctionId' | 'sourceId' | 'effects'>,
): Promise<SanctionDoc | null> {
  const lifted = state === 'lifted';
  const due = lifted ? {} : { expiresAt: { $ne: null, $lte: end.at } };
  const doc = await c.sanctions.findOneAndUpdate(
    { ...filter, state: 'active', ...due },
    { $set: { state, liftedAt: lifted ? end.at : null, liftedBy: lifted ? (end.moderatorId ?? null) : null, liftReason: lifted ? (end.reason ?? null) : null } },
    { session, returnDocument: 'after' },
  );
  if (doc) await appendFeedEvent(c, session, lifted ? 'sanction.lifted' : 'sanction.expired', doc, end.at);
  return doc;
}

/** In the decision's transaction: the undo of an approval lifts that case's sanction only. */
export async function liftSanctionOfCase(c: Collections, session: ClientSession, caseId: string, moderatorId: string, at: number): Promise<void> {
  await endSanction(c, session, 'lifted', { caseId }, { at, moderatorId, reason: null });
}

type SanctionMethods = Pick<
  Store,
  | 'isBanned'
  | 'sanctionsOfUser'
  | 'getSanction'
  | 'liftSanction'
  | 'expireSanction'
  | 'dueSanctions'
  | 'bannedUserIds'
  | 'sanctionFeed'
  | 'sanctionEventsOf'
  | 'pendingEffectsOf'
  | 'pendingEffects'
  | 'completeEffects'
>;

export function sanctionMethods(client: MongoClient, c: Collections): SanctionMethods {
  const end = (state: 'lifted' | 'expired', e: SanctionEnd) =>
    client.withSession((session) =>
      session.withTransaction(async (s) => {
        const doc = await endSanction(c, s, state, { _id: e.sanctionId }, e);
        if (doc) await recordEffects(c, s, e.sourceId, e.effects, e.at);
        return doc ? toSanction(doc) : null;
      }, SANCTION_TRANSACTION),
    );
  return {
    async isBanned(userId) {
      return (await c.sanctions.findOne({ userId, state: 'active' }, { projection: { _id: 1 } })) !== null;
    },
    async sanctionsOfUser(userId) {
      return (await c.sanctions.find({ userId }).sort({ createdAt: -1, _id: -1 }).toArray()).map(toSanction);
    },
    async getSanction(id) {
      const doc = await c.sanctions.findOne({ _id: id });
      return doc ? toSanction(doc) : null;
    },
    liftSanction: (e) => end('lifted', e),
    expireSanction: (e) => end('expired', e),
    async dueSanctions(at, limit) {
      // limit(0) means "no limit" to MongoDB; a limit of 0 lists nothing, as in SQL.
      if (limit <= 0) return [];
      const docs = await c.sanctions.find({ state: 'active', expiresAt: { $ne: null, $lte: at } }).sort({ expiresAt: 1, _id: 1 }).limit(limit).toArray();
      return docs.map(toSanction);
    },
    async bannedUserIds() {
      return ((await c.sanctions.distinct('userId', { state: 'active' })) as string[]).sort();
    },
    async sanctionFeed(after, limit) {
      // limit(0) means "no limit" to MongoDB; a limit of 0 lists nothing, as in SQL.
      if (limit <= 0) return [];
      // Majority read concern: only committed-to-majority events, which become visible in oplog
      // (= seq) order, so a page never holds seq n+1 while seq n is still to come.
      const docs = await c.sanctionEvents
        .find({ _id: { $gt: after } }, { readConcern: { level: 'majority' }, readPreference: 'primary' })
        .sort({ _id: 1 })
        .limit(limit)
        .toArray();
      return docs.map(toFeedEvent);
    },
    async sanctionEventsOf(sanctionId) {
      return (await c.sanctionEvents.find({ sanctionId }).sort({ _id: 1 }).toArray()).map(toFeedEvent);
    },
    async pendingEffectsOf(sourceId) {
      // A handful per source: sorted in memory after effects_by_source finds them.
      return (await c.effects.find({ sourceId, doneAt: null }).sort({ createdAt: 1, ordinal: 1, _id: 1 }).toArray()).map(toEffect);
    },
    async pendingEffects(createdBefore, limit) {
      // limit(0) means "no limit" to MongoDB; a limit of 0 lists nothing, as in SQL.
      if (limit <= 0) return [];
      const docs = await c.effects.find({ doneAt: null, createdAt: { $lte: createdBefore } }).sort({ createdAt: 1, _id: 1 }).limit(limit).toArray();
      return docs.map(toEffect);
    },
    async completeEffects(ids, at) {
      if (ids.length > 0) await c.effects.updateMany({ _id: { $in: ids }, doneAt: null }, { $set: { doneAt: at } });
    },
  };
}

/**
 * The `bans` collection of earlier versions (one document per banned user) becomes permanent
 * sanctions, each with its feed event, one transaction per ban; run at start, idempotent.
 */
export async function migrateBans(client: MongoClient, c: Collections): Promise<void> {
  for (const ban of await c.bans.find().toArray()) {
    await client.withSession((session) =>
      session.withTransaction(async (s) => {
        if (!(await c.bans.findOne({ _id: ban._id }, { session: s }))) return;
        const approval = await c.events.find({ caseId: ban.caseId, action: 'approve' }, { session: s }).sort({ seq: -1 }).limit(1).next();
        const id = approval?.decisionId ?? `ban-${ban.caseId}`;
        if (!(await c.sanctions.findOne({ _id: id }, { session: s }))) {
          await createSanction(c, s, { id, userId: ban.userId, caseId: ban.caseId, reason: null, moderatorId: approval?.moderatorId ?? 'unknown', at: ban.at, expiresAt: null });
        }
        await c.bans.deleteOne({ _id: ban._id }, { session: s });
      }, SANCTION_TRANSACTION),
    );
  }
}
