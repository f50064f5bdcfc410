import { randomUUID } from 'node:crypto';
import type { AnyBulkWriteOperation, ClientSession, MongoClient } from 'mongodb';
import type { NewReport, SavedReport } from '../records.js';
import type { Collections } from './collections.js';
import { toReportDoc, type CaseDoc, type ReportDoc } from './documents.js';
import { isDuplicateKey } from './driver-errors.js';
import { DECISION_TRANSACTION } from './transition-case.js';

/** Turns of "someone else just stored this report or opened this user's case" before giving up (the job retries). */
const MAX_RACES = 5;

/**
 * Stores a batch in one transaction, all or nothing as in the SQLite store, in four round trips
 * whatever its size (then the commit): the reports already stored, the users' open cases, the
 * case writes (one bulk write), the new reports (one insertMany). Reports are taken in order, so a
 * later report of the batch joins the case an earlier one opened.
 *
 * Every case a report joins is written (its report count), not only read: a decision on that case
 * (transitionCase, also a transaction writing it) and the save conflict, and the driver retries
 * whichever lost, so a report joins a case before its decision or a new case after it, never a
 * case decided in between. The callback reads everything it decides on inside the transaction, so
 * a retry starts over from a fresh snapshot.
 */
export async function saveReports(client: MongoClient, c: Collections, reports: NewReport[]): Promise<SavedReport[]> {
  if (reports.length === 0) return [];
  for (let race = 1; ; race++) {
    try {
      return await client.withSession((session) => session.withTransaction((s) => saveIn(c, reports, s), DECISION_TRANSACTION));
    } catch (err) {
      // A committed report with one of these ids, or an open case of one of these users, appeared
      // since the snapshot (another process stored the same report, or opened the case): read again.
      if (!isDuplicateKey(err) || race >= MAX_RACES) throw err;
    }
  }
}

async function saveIn(c: Collections, reports: NewReport[], session: ClientSession): Promise<SavedReport[]> {
  const ids = [...new Set(reports.map((r) => r.id))];
  const stored = new Map(
    (await c.reports.find({ _id: { $in: ids } }, { projection: { caseId: 1 }, session }).toArray()).map((d) => [d._id, d.caseId] as const),
  );
  const users = [...new Set(reports.filter((r) => !stored.has(r.id)).map((r) => r.userId))];
  const open = new Map<string, CaseDoc>();
  if (users.length > 0) {
    for (const d of await c.cases.find({ userId: { $in: users }, open: true }, { session }).toArray()) open.set(d.userId, d);
  }

  const joined = new Map<string, { userId: string; reports: number }>(); // stored open cases the batch joins
  const opened = new Map<string, CaseDoc>(); // cases the batch opens, by id
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
      kase = { _id: randomUUID(), userId: r.userId, state: 'open', claimedBy: null, version: 1, createdAt: r.receivedAt, updatedAt: r.receivedAt, open: true, openedBy: r.id, reportCount: 0 };
      open.set(r.userId, kase);
      opened.set(kase._id, kase);
    }
    if (opened.has(kase._id)) kase.reportCount = (kase.reportCount ?? 0) + 1;
    else joined.set(kase._id, { userId: kase.userId, reports: (joined.get(kase._id)?.reports ?? 0) + 1 });
    docs.push(toReportDoc(r, kase._id));
    stored.set(r.id, kase._id); // the same id again in this batch is the report already stored
    // openedBy, not "did this batch insert the case": a report stored by an older version, whose
    // case was inserted before a crash and its report after, still reports the opening.
    saved.push({ reportId: r.id, caseId: kase._id, created: true, openedCase: kase.openedBy === r.id });
  }

  const caseWrites: AnyBulkWriteOperation<CaseDoc>[] = [
    ...[...opened.values()].map((document) => ({ insertOne: { document } })),
    // userId: the shard key of a sharded `cases` (docs/scaling.md).
    ...[...joined].map(([_id, j]) => ({ updateOne: { filter: { _id, userId: j.userId, open: true as const }, update: { $inc: { reportCount: j.reports } } } })),
  ];
  if (caseWrites.length > 0) {
    const result = await c.cases.bulkWrite(caseWrites, { session, ordered: true });
    // Read in this snapshot, so still open: a change since makes the write conflict, not miss.
    if (result.matchedCount !== joined.size) throw new Error('an open case changed under the batch being stored');
  }
  if (docs.length > 0) await c.reports.insertMany(docs, { session, ordered: true });
  return saved;
}
