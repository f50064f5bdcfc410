import type { ClientSession } from 'mongodb';
import type { ReportOutcome } from '@rm/storage';
import type { Store } from '@rm/storage';
import type { Collections } from './collections.js';
import type { ReportOutcomeDoc } from './documents.js';

/** The counter document every transaction that changes an outcome updates (see appendOutcomes). */
export const OUTCOME_COUNTER = 'report_outcomes';

/** An outcome still without its seq: the transaction appends it last (appendOutcomes); a settlement page's (settlements.ts). */
export type PendingOutcome = Omit<ReportOutcomeDoc, 'seq'>;

const toOutcome = (d: ReportOutcomeDoc): ReportOutcome => ({ seq: d.seq, reportId: d._id, caseId: d.caseId, actioned: d.actioned, reopened: d.reopened, at: d.at });

/**
 * In a transaction, as its last writes: the next seqs and the outcomes, each replacing its report's
 * earlier one (which moves it to the end of its reporter's list). Every such transaction updates
 * the one counter document, so two of them conflict and commit one after the other, in seq order
 * (as the sanction feed's counter, appendFeedEvents): a reader at majority read concern never sees
 * seq n+1 without seq n. Taken last, so the counter is held only from here to the commit.
 */
export async function appendOutcomes(c: Collections, session: ClientSession, pending: PendingOutcome[]): Promise<void> {
  if (pending.length === 0) return;
  const counter = await c.counters.findOneAndUpdate({ _id: OUTCOME_COUNTER }, { $inc: { value: pending.length } }, { upsert: true, returnDocument: 'after', session });
  if (!counter) throw new Error('the report outcome counter was not returned by its update');
  const first = counter.value - pending.length + 1;
  await c.reportOutcomes.bulkWrite(
    pending.map(({ _id, ...o }, i) => ({ replaceOne: { filter: { _id }, replacement: { ...o, seq: first + i }, upsert: true } })),
    { session, ordered: true },
  );
}

export function reporterOutcomeMethods(c: Collections): Pick<Store, 'reporterOutcomes'> {
  return {
    async reporterOutcomes(reporter, after, limit) {
      // limit(0) means "no limit" to MongoDB; a limit of 0 lists nothing, as in SQL.
      if (limit <= 0) return [];
      // Majority read concern on the primary: only outcomes committed to a majority, which become
      // visible in commit (= seq) order, so a page never holds seq n+1 while seq n is still to come.
      const docs = await c.reportOutcomes
        .find({ platform: reporter.platform, reporterId: reporter.id, seq: { $gt: after } }, { readConcern: { level: 'majority' }, readPreference: 'primary' })
        .sort({ seq: 1 })
        .limit(limit)
        .toArray();
      return docs.map(toOutcome);
    },
  };
}
