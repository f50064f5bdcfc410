import type { Collection } from 'mongodb';
import type { CounterDoc } from './documents.js';
import { isDuplicateKey } from './driver-errors.js';

/** The next value of a named counter (1, 2, ...), shared by every process. */
export async function nextValue(counters: Collection<CounterDoc>, name: string): Promise<number> {
  const bump = () => counters.findOneAndUpdate({ _id: name }, { $inc: { value: 1 } }, { upsert: true, returnDocument: 'after' });
  let doc;
  try {
    doc = await bump();
  } catch (err) {
    // Two first upserts of the same counter at once: the loser retries and finds the document.
    if (!isDuplicateKey(err)) throw err;
    doc = await bump();
  }
  if (!doc) throw new Error(`counter ${name} was not returned by its upsert`);
  return doc.value;
}
