import { randomUUID } from 'node:crypto';
import type { ClientSession } from 'mongodb';
import type { CaseMessageRecord } from '@rm/storage';
import type { Store } from '@rm/storage';
import type { Collections } from './collections.js';
import { nextValue } from './counters.js';
import { toCaseMessage, toDelivery, toDeliveryDoc, toMessage, type MessageDoc } from './documents.js';
import { isDuplicateKey } from './driver-errors.js';

type MessageMethods = Pick<
  Store,
  'recordMessage' | 'editMessage' | 'listMessages' | 'getCaseMessage' | 'setCaseMessage' | 'findDelivery' | 'recordDelivery'
>;

/** Sets the case's message (in `session`'s transaction when given: a decision's re-post). */
export async function replaceCaseMessage(c: Collections, m: CaseMessageRecord, session?: ClientSession): Promise<void> {
  await c.caseMessages.replaceOne({ _id: m.caseId }, { channel: m.channel, messageId: m.messageId, updatedAt: m.updatedAt }, { upsert: true, ...(session && { session }) });
}

/** Chat messages, the message of each case, and deliveries to outside systems. */
export function messageMethods(c: Collections): MessageMethods {
  return {
    async recordMessage(m) {
      const existing = await c.messages.findOne({ dedupeKey: m.dedupeKey });
      if (existing) return toMessage(existing);
      const doc: MessageDoc = {
        _id: randomUUID(),
        seq: await nextValue(c.counters, 'messages'),
        channel: m.channel,
        kind: m.kind,
        content: m.content,
        dedupeKey: m.dedupeKey,
        createdAt: Date.now(),
        editedAt: null,
      };
      try {
        await c.messages.insertOne(doc);
        return toMessage(doc);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        // Recorded in the same instant by another process: the first one stands.
        const first = await c.messages.findOne({ dedupeKey: m.dedupeKey });
        if (!first) throw err;
        return toMessage(first);
      }
    },
    async editMessage(id, content, at) {
      const doc = await c.messages.findOneAndUpdate({ _id: id }, { $set: { content, editedAt: at } }, { returnDocument: 'after' });
      return doc ? toMessage(doc) : null;
    },
    async listMessages(limit) {
      // limit(0) means "no limit" to MongoDB; a limit of 0 lists nothing, as in SQL.
      if (limit <= 0) return [];
      return (await c.messages.find().sort({ createdAt: -1, seq: -1 }).limit(limit).toArray()).map(toMessage);
    },
    async getCaseMessage(caseId) {
      const doc = await c.caseMessages.findOne({ _id: caseId });
      return doc ? toCaseMessage(doc) : null;
    },
    async setCaseMessage(m) {
      await replaceCaseMessage(c, m);
    },
    async findDelivery(key) {
      const doc = await c.deliveries.findOne({ _id: key });
      return doc ? toDelivery(doc) : null;
    },
    async recordDelivery(d) {
      try {
        await c.deliveries.insertOne(toDeliveryDoc(d));
        return toDelivery(toDeliveryDoc(d));
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        // Already recorded (a redelivered job, or a concurrent one): the first record wins.
        const first = await c.deliveries.findOne({ _id: d.key });
        if (!first) throw err;
        return toDelivery(first);
      }
    },
  };
}
