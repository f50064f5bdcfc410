import { randomUUID } from 'node:crypto';
import type { ClientSession, MongoClient } from 'mongodb';
import type { NewReport, SavedReport } from '../records.js';
import type { Collections } from './collections.js';
import { toReportDoc, type CaseDoc } from './documents.js';
import { isDuplicateKey } from './driver-errors.js';
import { DECISION_TRANSACTION } from './transition-case.js';

/** Turns of "someone else just stored this report or opened this user's case" before giving up (the job retries). */
const MAX_RACES = 5;

/**
 * Stores reports one at a time, in order, so a later report of the batch joins the case an earlier
 * one opened. Each report is one transaction that writes its case document (see joinOrOpenCase):
 * a decision on that case (transitionCase, also a transaction writing it) and the save conflict,
 * and the driver retries whichever lost, so a report joins a case before its decision or a new
 * case after it, never a case decided in between.
 */
export async function saveReports(client: MongoClient, c: Collections, reports: NewReport[]): Promise<SavedReport[]> {
  const saved: SavedReport[] = [];
  for (const r of reports) saved.push(await saveOne(client, c, r));
  return saved;
}

async function saveOne(client: MongoClient, c: Collections, r: NewReport): Promise<SavedReport> {
  for (let race = 1; ; race++) {
    try {
      return await client.withSession((session) => session.withTransaction((s) => saveIn(c, r, s), DECISION_TRANSACTION));
    } catch (err) {
      // A committed report with this id, or an open case of the user, appeared since the snapshot
      // (another process stored the same report, or opened the case): read again.
      if (!isDuplicateKey(err) || race >= MAX_RACES) throw err;
    }
  }
}

async function saveIn(c: Collections, r: NewReport, session: ClientSession): Promise<SavedReport> {
  const stored = await c.reports.findOne({ _id: r.id }, { projection: { caseId: 1 }, session });
  if (stored) return { reportId: r.id, caseId: stored.caseId, created: false, openedCase: false };
  const joined = await joinOrOpenCase(c, r, session);
  await c.reports.insertOne(toReportDoc(r, joined._id), { session });
  // openedBy, not "did this call insert the case": a report stored by an older version, whose case
  // was inserted before a crash and its report after, still reports the opening.
  return { reportId: r.id, caseId: joined._id, created: true, openedCase: joined.openedBy === r.id };
}

/**
 * The user's open case, or a new one. The open case is written (its report count), not only read:
 * a concurrent decision writing the same document then makes one of the two transactions retry.
 */
async function joinOrOpenCase(c: Collections, r: NewReport, session: ClientSession): Promise<CaseDoc> {
  const open = await c.cases.findOneAndUpdate({ userId: r.userId, open: true }, { $inc: { reportCount: 1 } }, { session, returnDocument: 'after' });
  if (open) return open;
  const opened: CaseDoc = {
    _id: randomUUID(),
    userId: r.userId,
    state: 'open',
    claimedBy: null,
    version: 1,
    createdAt: r.receivedAt,
    updatedAt: r.receivedAt,
    open: true,
    openedBy: r.id,
    reportCount: 1,
  };
  await c.cases.insertOne(opened, { session });
  return opened;
}
