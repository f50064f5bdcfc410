import type { ClientSession, MongoClient, TransactionOptions } from 'mongodb';
import { OpenCaseConflictError } from '../errors.js';
import { OPEN_STATES, type CaseRecord, type Transition } from '../records.js';
import type { Collections } from './collections.js';
import { MAJORITY_WRITE, MONGO_LIMITS } from './connect.js';
import { toCase } from './documents.js';
import { isDuplicateKey } from './driver-errors.js';
import { appendFeedEvents, createSanction, liftSanctionOfCase, recordEffects, type PendingFeedEvent } from './sanctions.js';
import { countDecision } from './triage.js';
import { appendOutcomes, prepareOutcomes } from './reporter-outcomes.js';
import { replaceCaseMessage } from './messages.js';
import { approvalSanction } from '../approval-sanction.js';

/**
 * Snapshot reads and majority writes: a committed decision survives a failover, and the
 * compare-and-set sees the case as it is on the majority.
 */
export const DECISION_TRANSACTION: TransactionOptions = {
  readConcern: { level: 'snapshot' },
  writeConcern: MAJORITY_WRITE,
  maxCommitTimeMS: MONGO_LIMITS.maxCommitTimeMS,
  readPreference: 'primary',
};

/** Thrown inside the transaction when reopening hit the open-case index; mapped outside it. */
class ReopenConflict extends Error {}

/**
 * Applies a transition in one transaction: the compare-and-set on the case (one findOneAndUpdate
 * on _id, version and state), the audit event, the sanction change and its feed event, the
 * effects the decision owes (the outbox), an undo's re-posted case message, the reporters'
 * outcomes. All or nothing, as in the SQLite store, so a decision id found by findDecision always
 * means the whole decision was applied.
 * The driver retries the transaction on transient errors (write conflicts between concurrent
 * decisions); a retry whose compare-and-set no longer matches answers null.
 */
export async function transitionCase(client: MongoClient, c: Collections, t: Transition): Promise<CaseRecord | null> {
  try {
    return await client.withSession((session) => session.withTransaction((s) => apply(c, t, s), DECISION_TRANSACTION));
  } catch (err) {
    if (!(err instanceof ReopenConflict)) throw err;
    const conflicted = await c.cases.findOne({ _id: t.caseId }, { projection: { userId: 1 } });
    throw new OpenCaseConflictError(conflicted?.userId ?? '');
  }
}

async function apply(c: Collections, t: Transition, session: ClientSession): Promise<CaseRecord | null> {
  const now = Date.now();
  const open = OPEN_STATES.includes(t.next.state);
  // The case's user first: the compare-and-set then names the shard key (userId) of a sharded
  // `cases`, which a findOneAndUpdate there needs (docs/scaling.md). An unknown case answers null,
  // as in the SQLite store.
  const before = await c.cases.findOne({ _id: t.caseId }, { projection: { userId: 1 }, session });
  if (!before) return null;
  let updated;
  try {
    updated = await c.cases.findOneAndUpdate(
      { _id: t.caseId, userId: before.userId, version: t.expectedVersion, state: t.expectedState },
      {
        $set: { state: t.next.state, claimedBy: t.next.claimedBy, updatedAt: now, ...(open ? { open: true as const } : {}) },
        $inc: { version: 1 },
        ...(open ? {} : { $unset: { open: '' as const } }),
      },
      { session, returnDocument: 'after' },
    );
  } catch (err) {
    // Only a reopen can set `open` on a case while another case of the user holds it.
    if (isDuplicateKey(err)) throw new ReopenConflict();
    throw err;
  }
  if (!updated) return null;
  await c.events.insertOne(
    {
      caseId: t.caseId,
      userId: updated.userId,
      decisionId: t.event.decisionId,
      seq: updated.version,
      action: t.event.action,
      moderatorId: t.event.moderatorId,
      fromState: t.expectedState,
      toState: t.next.state,
      at: t.event.at,
      result: t.event.result ?? null,
    },
    { session },
  );
  let feed: PendingFeedEvent | null = null;
  if (t.ban === 'set') {
    feed = await createSanction(c, session, { id: t.event.decisionId, userId: updated.userId, caseId: t.caseId, ...approvalSanction(t), moderatorId: t.event.moderatorId, at: t.event.at });
  } else if (t.ban === 'lift') {
    feed = await liftSanctionOfCase(c, session, t.caseId, t.event.moderatorId, t.event.at);
  }
  await recordEffects(c, session, t.event.decisionId, t.effects, t.event.at);
  if (t.caseMessage) await replaceCaseMessage(c, t.caseMessage, session);
  await countDecision(c, t, session);
  const outcomes = await prepareOutcomes(c, session, t);
  // Last: the counters are held from here to the commit only (see appendFeedEvents, appendOutcomes).
  await appendOutcomes(c, session, outcomes);
  await appendFeedEvents(c, session, feed ? [feed] : []);
  return toCase(updated);
}
