import type { ClientSession, MongoClient } from 'mongodb';
import { OpenCaseConflictError } from '@rm/storage';
import { OPEN_STATES, type CaseRecord, type Transition } from '@rm/storage';
import type { Collections } from './collections.js';
import { toCase } from './documents.js';
import { isDuplicateKey } from './driver-errors.js';
import { appendFeedEvents, createSanction, liftSanctionOfCase, recordEffects, type PendingFeedEvent } from './sanctions.js';
import { replaceCaseMessage } from './messages.js';
import { approvalSanction } from '@rm/storage/adapter';
import { outcomeChange } from '@rm/storage/adapter';
import { recordSettlement, settle, settleCase, settlementPending } from './settlements.js';
import { runTransaction } from './transactions.js';

/** Thrown inside the transaction when reopening hit the open-case index; mapped outside it. */
class ReopenConflict extends Error {}

/** Thrown inside the transaction when an earlier decision of the case is still being settled. */
class SettlementUnderWay extends Error {}

/** Turns of "another process left a settlement of this case" before giving up (the job retries). */
const MAX_RACES = 5;

/**
 * Applies a transition in one transaction: the compare-and-set on the case (one findOneAndUpdate
 * on _id, version and state), the audit event, the sanction change and its feed event, the
 * effects the decision owes (the outbox), an undo's re-posted case message, and the settlement its
 * reports are owed. All or nothing, as in the SQLite store, so a decision id found by findDecision
 * always means the whole decision was applied.
 *
 * The per-report work (each report's outcome, each reporter's credibility) is not in that
 * transaction, whose size would grow with the case: it is settled after the commit, a bounded
 * page per transaction (settlements.ts), before this returns. A process stopped in between leaves
 * the settlement recorded; the decision's `reports.settle` effect, or the case's next decision,
 * finishes it, so a case's decisions settle in order.
 * runTransaction retries on transient errors (write conflicts between concurrent decisions); a
 * retry whose compare-and-set no longer matches answers null.
 */
export async function transitionCase(client: MongoClient, c: Collections, t: Transition): Promise<CaseRecord | null> {
  for (let race = 1; ; race++) {
    try {
      const updated = await runTransaction(client, (s) => apply(c, t, s));
      if (updated && outcomeChange(t)) await settle(client, c, t.event.decisionId);
      return updated;
    } catch (err) {
      // An earlier decision of the case left unsettled (its process stopped): finished first, then this one.
      if (err instanceof SettlementUnderWay && race < MAX_RACES) {
        await settleCase(client, c, t.caseId);
        continue;
      }
      if (!(err instanceof ReopenConflict)) throw err;
      const conflicted = await c.cases.findOne({ _id: t.caseId }, { projection: { userId: 1 } });
      throw new OpenCaseConflictError(conflicted?.userId ?? '');
    }
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
  // Read in this snapshot: a settlement recorded since comes with a write of the case, which then conflicts.
  if (await settlementPending(c, t.caseId, session)) throw new SettlementUnderWay();
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
  await recordSettlement(c, session, t);
  // Last: the counter is held from here to the commit only (see appendFeedEvents).
  await appendFeedEvents(c, session, feed ? [feed] : []);
  return toCase(updated);
}
