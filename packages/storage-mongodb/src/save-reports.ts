import { randomUUID } from 'node:crypto';
import type { ClientSession, MongoClient } from 'mongodb';
import type { NewReport, SavedReport } from '@rm/storage';
import type { Collections } from './collections.js';
import { toReportDoc, type CaseDoc, type ReportDoc } from './documents.js';
import { isDuplicateKey } from './driver-errors.js';
import { runTransaction } from './transactions.js';

/** Turns of "someone else just stored this report, opened this user's case or decided it" before giving up (the job retries). */
const MAX_RACES = 5;

type Placement = Pick<SavedReport, 'caseId' | 'openedCase'>;

/** A report still marked `pending`, as admission reads it. */
type PendingReport = Pick<ReportDoc, '_id' | 'caseId' | 'userId'>;

/**
 * Stores a batch in one transaction, all or nothing as in the SQLite store, in four round trips
 * whatever its size (then the commit): the reports already stored, the users' open cases, the new
 * cases, the new reports. Reports are taken in order, so a later report of the batch joins the
 * case an earlier one opened. Then each new report is admitted to its case (admit).
 *
 * The transaction writes no case it joins, only new documents: batches about one player stored by
 * many intake workers at once never conflict (a brigade against one player). Only two batches
 * opening the same player's case conflict, once per case; the loser retries and joins it.
 */
export async function saveReports(client: MongoClient, c: Collections, reports: NewReport[]): Promise<SavedReport[]> {
  if (reports.length === 0) return [];
  const { saved, pending } = await racing(() => runTransaction(client, (s) => saveIn(c, reports, s)));
  const moved = await admit(client, c, [...new Set(reports.map((r) => r.id))], pending);
  return saved.map((s) => ({ ...s, ...moved.get(s.reportId) }));
}

/** Runs `attempt` again when it lost a race on a unique key (a report or an open case stored since its snapshot). */
async function racing<T>(attempt: () => Promise<T>): Promise<T> {
  for (let race = 1; ; race++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isDuplicateKey(err) || race >= MAX_RACES) throw err;
    }
  }
}

/** The batch's answers, and its reports left `pending` as the commit leaves them: the new ones, and any an interrupted save left. */
async function saveIn(c: Collections, reports: NewReport[], session: ClientSession): Promise<{ saved: SavedReport[]; pending: PendingReport[] }> {
  const ids = [...new Set(reports.map((r) => r.id))];
  const found = await c.reports.find({ _id: { $in: ids } }, { projection: { caseId: 1, userId: 1, pending: 1 }, session }).toArray();
  const stored = new Map(found.map((d) => [d._id, d.caseId] as const));
  const pending: PendingReport[] = found.filter((d) => d.pending === true);
  const users = [...new Set(reports.filter((r) => !stored.has(r.id)).map((r) => r.userId))];
  const open = new Map<string, CaseDoc>();
  if (users.length > 0) {
    for (const d of await c.cases.find({ userId: { $in: users }, open: true }, { session }).toArray()) open.set(d.userId, d);
  }

  const opened: CaseDoc[] = [];
  const docs: ReportDoc[] = [];
  const saved: SavedReport[] = [];
  for (const r of reports) {
    const caseId = stored.get(r.id);
    if (caseId !== undefined) {
      saved.push({ reportId: r.id, caseId, created: false, openedCase: false });
      continue;
    }
    let kase = open.get(r.userId);
    if (!kase) {
      kase = newCase(r.userId, r.id, r.receivedAt);
      open.set(r.userId, kase);
      opened.push(kase);
    }
    docs.push({ ...toReportDoc(r, kase._id), pending: true });
    stored.set(r.id, kase._id); // the same id again in this batch is the report already stored
    // openedBy, not "did this batch insert the case": a report stored by an older version, whose
    // case was inserted before a crash and its report after, still reports the opening.
    saved.push({ reportId: r.id, caseId: kase._id, created: true, openedCase: kase.openedBy === r.id });
  }
  if (opened.length > 0) await c.cases.insertMany(opened, { session, ordered: true });
  if (docs.length > 0) await c.reports.insertMany(docs, { session, ordered: true });
  return { saved, pending: [...pending, ...docs] };
}

const newCase = (userId: string, openedBy: string, at: number): CaseDoc => ({
  _id: randomUUID(),
  userId,
  state: 'open',
  claimedBy: null,
  version: 1,
  createdAt: at,
  updatedAt: at,
  open: true,
  openedBy,
});

/**
 * After the commit, each of the batch's reports still `pending` (this save's, or an interrupted
 * earlier save's) is admitted to its case:
 * - its case is still open: the mark is removed. A decision on the case commits after this read,
 *   and its settlement reads the case's reports after that commit (settlements.ts), so it reaches
 *   the report.
 * - its case was decided since the transaction's snapshot: a report the decision's settlement
 *   has already reached stays, decided with the case; any other is moved to the player's open case
 *   (opened for it if none) and admitted there in turn. The move and the settlement both write the
 *   report, so exactly one of them happens to it.
 * The first round takes the pending reports as the transaction left them (`committed`); a later
 * round reads again what is still pending. Answers where the moved reports went.
 */
async function admit(client: MongoClient, c: Collections, ids: string[], committed: PendingReport[]): Promise<Map<string, Placement>> {
  const moved = new Map<string, Placement>();
  for (let round = 1; ; round++) {
    const pending = round === 1 ? committed : await c.reports.find({ _id: { $in: ids }, pending: true }, { projection: { caseId: 1, userId: 1 } }).toArray();
    if (pending.length === 0) return moved;
    if (round > MAX_RACES) throw new Error(`reports kept landing in cases decided under them (${pending.length} left pending; the job retries)`);
    const caseIds = [...new Set(pending.map((r) => r.caseId))];
    const open = new Set((await c.cases.find({ _id: { $in: caseIds }, open: true }, { projection: { _id: 1 } }).toArray()).map((d) => d._id));
    const admitted = pending.filter((r) => open.has(r.caseId)).map((r) => r._id);
    if (admitted.length > 0) await c.reports.updateMany({ _id: { $in: admitted }, pending: true }, { $unset: { pending: '' } });
    // Every one admitted (no decision came between): nothing is left to read again.
    if (admitted.length === pending.length) return moved;
    for (const caseId of caseIds.filter((id) => !open.has(id))) {
      const late = pending.filter((r) => r.caseId === caseId).map((r) => r._id);
      const to = await racing(() => runTransaction(client, (s) => moveOff(c, caseId, late, s)));
      for (const [id, placement] of to) moved.set(id, placement);
    }
  }
}

/** Moves the reports of decided case `from` that no settlement has reached to their player's open case. */
async function moveOff(c: Collections, from: string, ids: string[], session: ClientSession): Promise<Map<string, Placement>> {
  const late = await c.reports
    .find({ _id: { $in: ids }, caseId: from, pending: true, settledBy: { $exists: false } }, { projection: { userId: 1, receivedAt: 1 }, session })
    .sort({ receivedAt: 1, _id: 1 })
    .toArray();
  // Reached by the settlement: no longer pending in `from` once admitted (the next round).
  await c.reports.updateMany({ _id: { $in: ids }, caseId: from, pending: true, settledBy: { $exists: true } }, { $unset: { pending: '' } }, { session });
  const first = late[0];
  if (!first) return new Map();
  const existing = await c.cases.findOne({ userId: first.userId, open: true }, { session });
  const to = existing ?? newCase(first.userId, first._id, first.receivedAt);
  if (!existing) await c.cases.insertOne(to, { session });
  await c.reports.updateMany({ _id: { $in: late.map((r) => r._id) } }, { $set: { caseId: to._id } }, { session });
  return new Map(late.map((r) => [r._id, { caseId: to._id, openedCase: to.openedBy === r._id }]));
}
