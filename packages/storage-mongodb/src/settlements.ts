import type { ClientSession, Filter, MongoClient } from 'mongodb';
import type { ReporterRecord, Transition } from '@rm/storage';
import { outcomeChange } from '@rm/storage/adapter';
import type { Collections } from './collections.js';
import type { ReportDoc, SettlementDoc } from './documents.js';
import { appendOutcomes } from './reporter-outcomes.js';
import { countReporters, reporterCount } from './triage.js';
import { runTransaction } from './transactions.js';

/**
 * Reports settled per transaction: about 2 × this many writes (the outcomes, the reports' marks)
 * and at most this many reporters' counts, well inside MongoDB's advice of 1,000 documents per
 * transaction, however many reports the case has.
 */
export const SETTLEMENT_PAGE = 400;

/**
 * Inside a decision's transaction: what its case's reports are owed (each report's outcome, each
 * distinct reporter's credibility), recorded to be settled after the commit, a page per
 * transaction (settle). A transition that changes neither records nothing.
 */
export async function recordSettlement(c: Collections, session: ClientSession, t: Transition): Promise<void> {
  const outcome = outcomeChange(t);
  if (!outcome) return;
  await c.settlements.insertOne({ _id: t.event.decisionId, caseId: t.caseId, outcome, count: reporterCount(t), at: t.event.at, after: null }, { session });
}

/**
 * Inside an appeal's transaction that overturned a case's approval: the approval no longer counts
 * for the case's reporters (as an undo), settled as a decision's is; their outcomes stay.
 */
export async function recordUncount(c: Collections, session: ClientSession, decisionId: string, caseId: string, at: number): Promise<void> {
  await c.settlements.insertOne({ _id: decisionId, caseId, outcome: null, count: { state: 'approved', step: -1 }, at, after: null }, { session });
}

/** Whether a settlement of the case is still under way: a decision on it waits for it first. */
export async function settlementPending(c: Collections, caseId: string, session: ClientSession): Promise<boolean> {
  return (await c.settlements.findOne({ caseId }, { projection: { _id: 1 }, session })) !== null;
}

/** Settles every settlement of the case still under way (a decision of it interrupted by a crash). */
export async function settleCase(client: MongoClient, c: Collections, caseId: string): Promise<void> {
  for (const s of await c.settlements.find({ caseId }, { projection: { _id: 1 } }).toArray()) await settle(client, c, s._id);
}

/**
 * Settles a decision's reports a page at a time, until none is left; then its settlement is
 * deleted. Idempotent, and safe in several processes at once: each page's transaction reads the
 * settlement and advances it, so two runs conflict and one redoes nothing.
 *
 * A report stored into the case after the decision's commit is settled if a page reaches it, or
 * else moved off the case by its own save (save-reports.ts): both write the report, so exactly one
 * of the two happens to it.
 */
export async function settle(client: MongoClient, c: Collections, decisionId: string): Promise<void> {
  while (await runTransaction(client, (session) => settlePage(c, decisionId, session)));
}

async function settlePage(c: Collections, decisionId: string, session: ClientSession): Promise<boolean> {
  const s = await c.settlements.findOne({ _id: decisionId }, { session });
  if (!s) return false;
  const page = await c.reports
    .find({ caseId: s.caseId, ...after(s.after) }, { projection: { reporterPlatform: 1, reporterId: 1 }, session })
    .sort({ reporterPlatform: 1, reporterId: 1, _id: 1 })
    .limit(SETTLEMENT_PAGE)
    .toArray();
  const last = page.at(-1);
  if (!last) {
    await c.settlements.deleteOne({ _id: decisionId }, { session });
    return false;
  }
  // Each reporter once: one whose reports began on an earlier page was counted there.
  if (s.count) await countReporters(c, distinctReporters(page, s.after), s.count, session);
  await c.settlements.updateOne({ _id: decisionId }, { $set: { after: { platform: last.reporterPlatform, reporterId: last.reporterId, id: last._id } } }, { session });
  const outcome = s.outcome;
  if (outcome) {
    await c.reports.updateMany({ _id: { $in: page.map((r) => r._id) } }, { $set: { settledBy: decisionId } }, { session });
    // Last: the outcome counter is held from here to the commit only (see appendOutcomes).
    await appendOutcomes(
      c,
      session,
      page.map((r) => ({ _id: r._id, platform: r.reporterPlatform, reporterId: r.reporterId, caseId: s.caseId, ...outcome, at: s.at })),
    );
  }
  return true;
}

/** The reports after the cursor, in the order of reports_by_case_reporter (each branch one range of it). */
function after(cursor: SettlementDoc['after']): Filter<ReportDoc> {
  if (!cursor) return {};
  const { platform, reporterId, id } = cursor;
  return { $or: [{ reporterPlatform: { $gt: platform } }, { reporterPlatform: platform, reporterId: { $gt: reporterId } }, { reporterPlatform: platform, reporterId, _id: { $gt: id } }] };
}

function distinctReporters(page: Pick<ReportDoc, 'reporterPlatform' | 'reporterId'>[], cursor: SettlementDoc['after']): ReporterRecord[] {
  const seen = new Map<string, ReporterRecord>();
  for (const r of page) {
    if (cursor && r.reporterPlatform === cursor.platform && r.reporterId === cursor.reporterId) continue;
    seen.set(JSON.stringify([r.reporterPlatform, r.reporterId]), { platform: r.reporterPlatform, id: r.reporterId });
  }
  return [...seen.values()];
}
