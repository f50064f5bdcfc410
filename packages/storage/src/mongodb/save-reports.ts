import { randomUUID } from 'node:crypto';
import type { NewReport, SavedReport } from '../records.js';
import type { Collections } from './collections.js';
import { toReportDoc, type CaseDoc } from './documents.js';
import { isDuplicateKey } from './driver-errors.js';

/** Turns of "no open case, but someone else just opened one" before giving up (and the job retries). */
const MAX_CASE_RACES = 5;

/**
 * Stores reports one at a time, in order, so a later report of the batch joins the case an earlier
 * one opened. No transaction: the unique indexes on the report id and on the user's open case
 * settle every race between processes, and each step can be repeated by a retried job.
 */
export async function saveReports(c: Collections, reports: NewReport[]): Promise<SavedReport[]> {
  const saved: SavedReport[] = [];
  for (const r of reports) saved.push(await saveOne(c, r));
  return saved;
}

async function saveOne(c: Collections, r: NewReport): Promise<SavedReport> {
  const stored = await storedCaseId(c, r.id);
  if (stored !== null) return unchanged(r.id, stored);
  const joined = await joinOrOpenCase(c, r);
  try {
    await c.reports.insertOne(toReportDoc(r, joined._id));
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    // The same report, stored in the same instant by another process: that copy counts.
    const winner = await storedCaseId(c, r.id);
    if (winner === null) throw err;
    return unchanged(r.id, winner);
  }
  // openedBy, not "did this call insert the case": a retry after a crash between the case and the
  // report, or a race lost to a process storing the same report, still reports the opening.
  return { reportId: r.id, caseId: joined._id, created: true, openedCase: joined.openedBy === r.id };
}

async function storedCaseId(c: Collections, reportId: string): Promise<string | null> {
  const doc = await c.reports.findOne({ _id: reportId }, { projection: { caseId: 1 } });
  return doc ? doc.caseId : null;
}

const unchanged = (reportId: string, caseId: string): SavedReport => ({ reportId, caseId, created: false, openedCase: false });

/** The user's open case, or a new one. Two processes opening one at once: the unique index picks one. */
async function joinOrOpenCase(c: Collections, r: NewReport): Promise<CaseDoc> {
  for (let race = 0; race < MAX_CASE_RACES; race++) {
    const open = await c.cases.findOne({ userId: r.userId, open: true });
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
    };
    try {
      await c.cases.insertOne(opened);
      return opened;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      // Another process opened the user's case first: read it on the next turn and join it.
    }
  }
  throw new Error(`the open case of user ${r.userId} kept changing while a report was stored; try again`);
}
