import type { ClientSession, Document, Filter, MongoClient } from 'mongodb';
import type { StatementOfReasons } from '@rm/contracts';
import type { EffectRecord, LadderNote, NewEffect, SanctionEnd, SanctionEvent, SanctionEventType, SanctionRecord, SanctionSource, SanctionSummary, SanctionTally, StoredSanction } from '@rm/storage';
import { isDuplicateKey } from './driver-errors.js';
import { effectCreatedAt } from '@rm/storage/adapter';
import type { Store } from '@rm/storage';
import type { Collections } from './collections.js';
import type { EffectDoc, SanctionDoc, SanctionEventDoc } from './documents.js';
import { caseIdIs } from './partial-filters.js';
import { runTransaction } from './transactions.js';
import type { MigrationPage } from './migration-pages.js';

/** The fields toSummary reads. */
const SUMMARY_FIELDS = { _id: 1, caseId: 1, kind: 1, blocksLogin: 1, category: 1, state: 1, createdAt: 1, effectiveAt: 1, expiresAt: 1 } as const;

/** The summary's fields; an earlier version's document may lack the newer ones (their defaults here). */
const toSummary = (d: Pick<SanctionDoc, '_id' | 'caseId' | 'kind' | 'blocksLogin' | 'category' | 'state' | 'createdAt' | 'effectiveAt' | 'expiresAt'>): SanctionSummary => ({
  id: d._id,
  caseId: d.caseId ?? null,
  kind: d.kind,
  blocksLogin: d.blocksLogin ?? true,
  category: d.category ?? null,
  state: d.state,
  createdAt: d.createdAt,
  effectiveAt: d.effectiveAt ?? null,
  expiresAt: d.expiresAt ?? null,
});

export const toSanction = (d: SanctionDoc): SanctionRecord => ({
  ...toSummary(d),
  userId: d.userId,
  source: d.source ?? sourceOfEarlier(d),
  idempotencyKey: d.idempotencyKey ?? null,
  ladder: d.ladder ?? null,
  evidence: d.evidence ?? [],
  reason: d.reason ?? null,
  moderatorId: d.moderatorId,
  boundModeratorId: d.boundModeratorId ?? null,
  liftedAt: d.liftedAt ?? null,
  liftedBy: d.liftedBy ?? null,
  liftReason: d.liftReason ?? null,
  statement: d.statement ?? null,
});

/** An earlier version's sanction: from its rule (`rule-<case>-<rule>` ids) or its case, as SQLite migration 9 says. */
function sourceOfEarlier(d: SanctionDoc): SanctionRecord['source'] {
  const rule = `rule-${d.caseId ?? ''}-`;
  return d._id.startsWith(rule) ? { type: 'rule', id: d._id.slice(rule.length) } : { type: 'case', id: d.caseId ?? '' };
}
/** A feed event; a creation carries its sanction's statement (looked up by the caller, statementsOf). */
const toFeedEvent = (d: SanctionEventDoc, statements: Map<string, StatementOfReasons | null>): SanctionEvent => ({
  seq: d._id,
  type: d.type,
  sanctionId: d.sanctionId,
  userId: d.userId,
  caseId: d.caseId ?? null,
  kind: d.kind ?? 'ban',
  expiresAt: d.expiresAt ?? null,
  at: d.at,
  ...(d.cause && { cause: d.cause }),
  ...(d.appeal && { appeal: d.appeal }),
  statement: d.type === 'sanction.created' ? (statements.get(d.sanctionId) ?? null) : null,
});

/** The statements of the sanctions created by these events, in one read by _id. */
async function statementsOf(c: Collections, events: SanctionEventDoc[], options: { readConcern?: { level: 'majority' }; readPreference?: 'primary' } = {}): Promise<Map<string, StatementOfReasons | null>> {
  const ids = [...new Set(events.filter((e) => e.type === 'sanction.created').map((e) => e.sanctionId))];
  if (ids.length === 0) return new Map();
  const docs = await c.sanctions.find({ _id: { $in: ids } }, { projection: { statement: 1 }, ...options }).toArray();
  return new Map(docs.map((d) => [d._id, d.statement ?? null]));
}

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

/** A feed event still without its seq: the transaction appends it last (appendFeedEvents). */
export type PendingFeedEvent = Omit<SanctionEventDoc, '_id'>;

export const feedEvent = (type: SanctionEventType, s: SanctionDoc, at: number, extra: Pick<PendingFeedEvent, 'cause' | 'appeal'> = {}): PendingFeedEvent => ({
  type,
  sanctionId: s._id,
  userId: s.userId,
  caseId: s.caseId ?? null,
  kind: s.kind,
  expiresAt: s.expiresAt,
  at,
  ...(extra.cause && { cause: extra.cause }),
  ...(extra.appeal && { appeal: extra.appeal }),
});

/**
 * In a transaction, as its last writes: the next feed seqs and their events. Every transaction that
 * changes a sanction updates the one counter document, so two of them conflict (the later one is
 * aborted by the server and retried by runTransaction once the first has committed): they commit
 * one after the other, in seq order. A reader at majority read concern therefore never sees seq
 * n+1 without seq n, and a reader paging by seq misses nothing. Taken last, so the counter is held
 * only from here to the commit, not through the rest of the transaction's work.
 */
export async function appendFeedEvents(c: Collections, session: ClientSession, events: PendingFeedEvent[]): Promise<void> {
  if (events.length === 0) return;
  const counter = await c.counters.findOneAndUpdate({ _id: FEED_COUNTER }, { $inc: { value: events.length } }, { upsert: true, returnDocument: 'after', session });
  if (!counter) throw new Error('the sanction feed counter was not returned by its update');
  const first = counter.value - events.length + 1;
  await c.sanctionEvents.insertMany(
    events.map((e, i) => ({ _id: first + i, ...e })),
    { session, ordered: true },
  );
}

/** In a transaction: the effects owed by a change, once each (an id already recorded is kept). */
export async function recordEffects(c: Collections, session: ClientSession, sourceId: string, effects: NewEffect[] | undefined, at: number): Promise<void> {
  if (!effects || effects.length === 0) return;
  // One round trip for a batch's thousands of effects.
  await c.effects.bulkWrite(
    effects.map((e, ordinal) => ({
      updateOne: {
        filter: { _id: e.id },
        update: { $setOnInsert: { sourceId, kind: e.kind, payload: e.payload ?? null, createdAt: effectCreatedAt(e, at), doneAt: null, ordinal } },
        upsert: true,
      },
    })),
    { session, ordered: true },
  );
}

/** In the decision's transaction: the approval's sanction; returns its feed event, for appendFeedEvents. */
export async function createSanction(
  c: Collections,
  session: ClientSession,
  s: {
    id: string;
    userId: string;
    caseId: string;
    kind?: string;
    blocksLogin?: boolean;
    category?: string | null;
    source?: SanctionSource;
    ladder?: LadderNote | null;
    statement?: StatementOfReasons | null;
    reason: string | null;
    moderatorId: string;
    at: number;
    expiresAt: number | null;
  },
): Promise<PendingFeedEvent> {
  const doc: SanctionDoc = {
    _id: s.id,
    userId: s.userId,
    caseId: s.caseId,
    kind: s.kind ?? 'ban',
    blocksLogin: s.blocksLogin ?? true,
    category: s.category ?? null,
    source: s.source ?? { type: 'case', id: s.caseId },
    effectiveAt: null,
    ladder: s.ladder ?? null,
    statement: s.statement ?? null,
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
  return feedEvent('sanction.created', doc, s.at);
}

/**
 * In a transaction: ends the sanction if it is still active (and, to expire, due), returning it
 * with its feed event (for appendFeedEvents; none for a scheduled one lifted); null otherwise.
 */
export async function endSanction(
  c: Collections,
  session: ClientSession,
  state: 'lifted' | 'expired',
  filter: { _id: string } | ReturnType<typeof caseIdIs>,
  end: Omit<SanctionEnd, 'sanctionId' | 'sourceId' | 'effects'>,
): Promise<{ doc: SanctionDoc; event: PendingFeedEvent | null } | null> {
  const lifted = state === 'lifted';
  const due = lifted ? {} : { expiresAt: { $ne: null, $lte: end.at } };
  const set = { $set: { state, liftedAt: lifted ? end.at : null, liftedBy: lifted ? (end.moderatorId ?? null) : null, liftReason: lifted ? (end.reason ?? null) : null } };
  const doc = await c.sanctions.findOneAndUpdate({ ...filter, state: 'active', ...due }, set, { session, returnDocument: 'after' });
  if (doc) return { doc, event: feedEvent(lifted ? 'sanction.lifted' : 'sanction.expired', doc, end.at, { cause: end.cause }) };
  // A scheduled sanction (a wave not effective yet) can be lifted: it was never in the feed, so
  // its lift is not either.
  if (!lifted || !('_id' in filter)) return null;
  const scheduled = await c.sanctions.findOneAndUpdate({ ...filter, state: 'scheduled' }, set, { session, returnDocument: 'after' });
  return scheduled ? { doc: scheduled, event: null } : null;
}

/** In the decision's transaction: the undo of an approval lifts that case's sanction only; its feed event, if any. */
export async function liftSanctionOfCase(c: Collections, session: ClientSession, caseId: string, moderatorId: string, at: number): Promise<PendingFeedEvent | null> {
  // Through sanctions_active_by_case_v2: the filter repeats its `$type` (partial-filters.ts).
  return (await endSanction(c, session, 'lifted', caseIdIs(caseId), { at, moderatorId, reason: null }))?.event ?? null;
}

type SanctionMethods = Pick<
  Store,
  | 'isBanned'
  | 'sanctionsOfUser'
  | 'sanctionSummariesOfUser'
  | 'sanctionTallyOfUser'
  | 'getSanction'
  | 'liftSanction'
  | 'expireSanction'
  | 'dueSanctions'
  | 'bannedUserIds'
  | 'sanctionFeed'
  | 'sanctionEventsOf'
  | 'createSanctions'
  | 'dueScheduledSanctions'
  | 'activateSanctions'
  | 'pendingEffectsOf'
  | 'pendingEffects'
  | 'completeEffects'
  | 'pruneEffects'
>;

/**
 * How often a process looks for `bans` written by a process of an earlier version still running
 * during a rolling upgrade (migrate on read; docs/decisions.md).
 */
export const OLD_BANS_CHECK_MS = 5_000;

export function sanctionMethods(client: MongoClient, c: Collections): SanctionMethods {
  // Migrate on read: the reads that show bans first turn any old `bans` into sanctions, at most
  // every OLD_BANS_CHECK_MS (a look at an empty collection otherwise).
  let lastBansCheck = Date.now();
  const migrateOldBans = async () => {
    if (Date.now() - lastBansCheck < OLD_BANS_CHECK_MS) return;
    lastBansCheck = Date.now();
    try {
      await migrateBans(client, c);
    } catch {
      // The read still answers; the next check tries again.
    }
  };
  const end = (state: 'lifted' | 'expired', e: SanctionEnd) =>
    runTransaction(client, async (s) => {
        const ended = await endSanction(c, s, state, { _id: e.sanctionId }, e);
        if (!ended) return null;
        await recordEffects(c, s, e.sourceId, e.effects, e.at);
        await appendFeedEvents(c, s, ended.event ? [ended.event] : []);
        return toSanction(ended.doc);
      });
  return {
    async isBanned(userId) {
      await migrateOldBans();
      // blocksLogin absent: a ban of an earlier version.
      return (await c.sanctions.findOne({ userId, state: 'active', blocksLogin: { $ne: false } }, { projection: { _id: 1 } })) !== null;
    },
    async sanctionsOfUser(userId) {
      await migrateOldBans();
      return (await c.sanctions.find({ userId }).sort({ createdAt: -1, _id: -1 }).toArray()).map(toSanction);
    },
    async sanctionSummariesOfUser(userId, filter) {
      await migrateOldBans();
      const query: Filter<SanctionDoc> = { userId };
      if (filter) {
        query.state = { $in: [...filter.states] };
        if (filter.category !== undefined) query.category = filter.category;
        if (filter.caseId !== undefined) query.caseId = filter.caseId;
      }
      return (await c.sanctions.find(query, { projection: SUMMARY_FIELDS }).sort({ createdAt: -1, _id: -1 }).toArray()).map(toSummary);
    },
    async sanctionTallyOfUser(userId) {
      await migrateOldBans();
      const count = (when: Document) => ({ $sum: { $cond: [when, 1, 0] } });
      const isActive = { $eq: ['$state', 'active'] };
      // blocksLogin absent: a ban of an earlier version (as isBanned).
      const [tally] = await c.sanctions
        .aggregate<SanctionTally>([
          { $match: { userId } },
          { $group: { _id: null, active: count(isActive), ended: count({ $in: ['$state', ['expired', 'lifted']] }), banning: count({ $and: [isActive, { $ne: ['$blocksLogin', false] }] }) } },
          { $project: { _id: 0, active: 1, ended: 1, banning: 1 } },
        ])
        .toArray();
      return tally ?? { active: 0, ended: 0, banning: 0 };
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
    async bannedUserIds(afterUserId, limit) {
      if (limit <= 0) return [];
      await migrateOldBans();
      // Through sanctions_active_by_user, from afterUserId on, in id order. A player with several
      // active sanctions has several entries: skipped here, so a page holds `limit` distinct ids
      // (or fewer at the end). The cursor reads in batches: no reply nears MongoDB's 16 MB.
      const cursor = c.sanctions
        .find({ state: 'active', blocksLogin: { $ne: false }, userId: { $gt: afterUserId } }, { projection: { _id: 0, userId: 1 } })
        .sort({ userId: 1 })
        .batchSize(Math.min(limit + 16, 10_000));
      const ids: string[] = [];
      try {
        for await (const { userId } of cursor) {
          if (ids.at(-1) === userId) continue;
          if (ids.length === limit) break;
          ids.push(userId);
        }
      } finally {
        await cursor.close();
      }
      return ids;
    },
    async sanctionFeed(after, limit) {
      await migrateOldBans();
      // limit(0) means "no limit" to MongoDB; a limit of 0 lists nothing, as in SQL.
      if (limit <= 0) return [];
      // Majority read concern: only committed-to-majority events, which become visible in oplog
      // (= seq) order, so a page never holds seq n+1 while seq n is still to come.
      const docs = await c.sanctionEvents
        .find({ _id: { $gt: after } }, { readConcern: { level: 'majority' }, readPreference: 'primary' })
        .sort({ _id: 1 })
        .limit(limit)
        .toArray();
      // A sanction is written in the transaction of its creation event, so an event read at
      // majority has its sanction committed to a majority too.
      const statements = await statementsOf(c, docs, { readConcern: { level: 'majority' }, readPreference: 'primary' });
      return docs.map((d) => toFeedEvent(d, statements));
    },
    async sanctionEventsOf(sanctionId) {
      const docs = await c.sanctionEvents.find({ sanctionId }).sort({ _id: 1 }).toArray();
      const statements = await statementsOf(c, docs);
      return docs.map((d) => toFeedEvent(d, statements));
    },
    async createSanctions(batch) {
      // The keys are looked up in the transaction and inserted with it; a concurrent batch that
      // inserted one of them first makes this transaction fail on the unique index (or conflict
      // and be retried): it is then run again, and finds that key's sanction.
      for (let attempt = 0; ; attempt++) {
        try {
          return await runTransaction(client, (s) => createBatch(c, s, batch));
        } catch (err) {
          if (!isDuplicateKey(err) || attempt >= 3) throw err;
        }
      }
    },
    async dueScheduledSanctions(at, limit) {
      if (limit <= 0) return [];
      return (await c.sanctions.find({ state: 'scheduled', effectiveAt: { $lte: at } }).sort({ effectiveAt: 1, _id: 1 }).limit(limit).toArray()).map(toSanction);
    },
    async activateSanctions(a) {
      return runTransaction(client, async (s) => {
          const ids = a.items.map((i) => i.sanctionId);
          const due = await c.sanctions.find({ _id: { $in: ids }, state: 'scheduled' }, { session: s }).toArray();
          if (due.length > 0) await c.sanctions.updateMany({ _id: { $in: due.map((d) => d._id) }, state: 'scheduled' }, { $set: { state: 'active' } }, { session: s });
          const active = due.map((d) => ({ ...d, state: 'active' as const }));
          // In the order asked for (the caller's order), as the SQLite store writes them.
          const order = new Map(ids.map((id, i) => [id, i]));
          active.sort((x, y) => order.get(x._id)! - order.get(y._id)!);
          const activated = new Set(active.map((d) => d._id));
          await recordEffects(c, s, a.sourceId, a.items.filter((i) => activated.has(i.sanctionId)).flatMap((i) => i.effects), a.at);
          await appendFeedEvents(c, s, active.map((d) => feedEvent('sanction.created', d, a.at)));
          return active.map(toSanction);
        });
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
    async pruneEffects(doneBefore, limit) {
      if (limit <= 0) return 0;
      // Through effects_pending (doneAt first); a number below doneBefore never matches a pending null.
      const ids = (await c.effects.find({ doneAt: { $lt: doneBefore } }, { projection: { _id: 1 } }).sort({ doneAt: 1 }).limit(limit).toArray()).map((d) => d._id);
      if (ids.length === 0) return 0;
      return (await c.effects.deleteMany({ _id: { $in: ids }, doneAt: { $lt: doneBefore } })).deletedCount;
    },
  };
}

/**
 * The sanctions of these creators with these idempotency keys, through sanctions_by_idempotency_key_v2.
 * Its partial filter (`$type: 'string'`) is repeated here: the planner picks a partial index only
 * for a query that implies its filter, and an equality or `$in` does not imply a `$type`.
 */
export const idempotencyKeyFilter = (creators: string[], keys: string[]): Filter<SanctionDoc> => ({
  moderatorId: { $in: creators },
  idempotencyKey: { $in: keys, $type: 'string' },
});

/** A key is its creator's own: the same key of two creators is two sanctions. */
const scoped = (creator: string, key: string) => JSON.stringify([creator, key]);

/** In a transaction: a trusted system's batch (see Store.createSanctions). */
async function createBatch(c: Collections, session: ClientSession, batch: Parameters<Store['createSanctions']>[0]): Promise<StoredSanction[]> {
  const creators = [...new Set(batch.items.map((i) => i.moderatorId))];
  const keys = batch.items.map((i) => i.idempotencyKey);
  const existing = new Map<string, SanctionDoc>();
  // `$in` on both fields also finds one creator's key asked by another: the map keeps the pairs apart.
  for (const d of await c.sanctions.find(idempotencyKeyFilter(creators, keys), { session }).toArray()) existing.set(scoped(d.moderatorId, d.idempotencyKey!), d);
  const results: { doc: SanctionDoc; created: boolean }[] = [];
  const fresh: SanctionDoc[] = [];
  const effects: NewEffect[] = [];
  for (const item of batch.items) {
    const key = scoped(item.moderatorId, item.idempotencyKey);
    const found = existing.get(key);
    if (found) {
      results.push({ doc: found, created: false });
      continue;
    }
    const doc: SanctionDoc = {
      _id: item.id,
      userId: item.userId,
      caseId: null,
      kind: item.kind,
      blocksLogin: item.blocksLogin,
      category: item.category,
      source: item.source,
      idempotencyKey: item.idempotencyKey,
      effectiveAt: batch.effectiveAt,
      ladder: null,
      evidence: item.evidence,
      statement: item.statement,
      reason: item.reason,
      moderatorId: item.moderatorId,
      boundModeratorId: item.boundModeratorId ?? null,
      createdAt: batch.at,
      expiresAt: item.expiresAt,
      state: batch.effectiveAt === null ? 'active' : 'scheduled',
      liftedAt: null,
      liftedBy: null,
      liftReason: null,
    };
    // The same key twice in one batch: the first item creates it, the second finds it.
    existing.set(key, doc);
    fresh.push(doc);
    if (batch.effectiveAt === null) effects.push(...item.effects);
    results.push({ doc, created: true });
  }
  if (fresh.length > 0) await c.sanctions.insertMany(fresh, { session, ordered: true });
  await recordEffects(c, session, batch.sourceId, effects, batch.at);
  // Last (see appendFeedEvents); a scheduled wave enters the feed when it is activated.
  if (batch.effectiveAt === null) await appendFeedEvents(c, session, fresh.map((d) => feedEvent('sanction.created', d, batch.at)));
  return results.map((r) => ({ sanction: toSanction(r.doc), created: r.created }));
}

/** Bans converted per transaction when they are migrated on read (sanctionMethods). */
const BANS_PAGE = 500;

/**
 * The `bans` collection of earlier versions (one document per banned user) becomes permanent
 * sanctions, a page per transaction: the migration `sanctions_from_bans` (migrations.ts), then,
 * while processes of that era may still write bans during a rolling upgrade, on read
 * (sanctionMethods). Idempotent, and safe when several processes run it at once.
 */
export async function migrateBans(client: MongoClient, c: Collections): Promise<void> {
  for (let after = ''; ; ) {
    const page = await runTransaction(client, (s) => sanctionsFromBans(c, s, after, BANS_PAGE));
    if (page.last === null || page.count < BANS_PAGE) return;
    after = page.last;
  }
}

/**
 * In a transaction, one page of `bans` by user id: each becomes a sanction (unless one with its id
 * exists) with its feed event, and is deleted. The sanction's id is the approval's decision id,
 * as a newer process would have given it. The page's feed events are appended last, at once.
 */
export const sanctionsFromBans: MigrationPage = async (c, session, after, limit) => {
  const bans = await c.bans.find({ _id: { $gt: after } }, { session }).sort({ _id: 1 }).limit(limit).toArray();
  const created: PendingFeedEvent[] = [];
  for (const ban of bans) {
    const approval = await c.events.find({ caseId: ban.caseId, action: 'approve' }, { session }).sort({ seq: -1 }).limit(1).next();
    const id = approval?.decisionId ?? `ban-${ban.caseId}`;
    if (await c.sanctions.findOne({ _id: id }, { projection: { _id: 1 }, session })) continue;
    created.push(await createSanction(c, session, { id, userId: ban.userId, caseId: ban.caseId, reason: null, moderatorId: approval?.moderatorId ?? 'unknown', at: ban.at, expiresAt: null }));
  }
  if (bans.length > 0) await c.bans.deleteMany({ _id: { $in: bans.map((b) => b._id) } }, { session });
  await appendFeedEvents(c, session, created);
  return { count: bans.length, last: bans.at(-1)?._id ?? null };
};
