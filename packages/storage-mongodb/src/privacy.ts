import type { ClientSession, MongoClient } from 'mongodb';
import {
  dmChannel,
  ERASED_TEXT,
  type ErasureStep,
  type ErasureStepOutcome,
  type HoldRecord,
  type HoldTarget,
  type PrivacyAuditEntry,
  type ReportRecord,
  type Store,
} from '@rm/storage';
import { dmKeySuffix } from '@rm/contracts';
import { holdTargetRef, reportScrubChanged, scrubbedReport } from '@rm/storage/adapter';
import type { Collections } from './collections.js';
import { toAppeal, toCase, toEvent, toReport, toUser, type ReportDoc } from './documents.js';
import { toSanction } from './sanctions.js';
import { runTransaction } from './transactions.js';
import { activeAt, deleteReportEvidence, eraseAppeal, eraseSanction, holdsAt, unheldOf } from './privacy-rules.js';

import { PRIVACY_AUDIT_COUNTER, type HoldDoc, type PrivacyAuditDoc } from './privacy-documents.js';

const toHold = ({ _id, targetType, targetId, ...rest }: HoldDoc): HoldRecord => ({ id: _id, target: { type: targetType, id: targetId }, ...rest });
const toAudit = ({ _id, ...rest }: PrivacyAuditDoc): PrivacyAuditEntry => ({ seq: _id, ...rest });

/** The privacy collections' indexes (indexes.ts calls this): holds by target; a reporter's reports. */
export async function ensurePrivacyIndexes(c: Collections): Promise<void> {
  await c.privacyHolds.createIndexes([{ key: { targetType: 1, targetId: 1 }, name: 'privacy_holds_by_target' }]);
  // A data subject request finds a reporter's reports without reading every report (docs/decisions.md).
  await c.reports.createIndexes([{ key: { reporterPlatform: 1, reporterId: 1, _id: 1 }, name: 'reports_by_reporter' }]);
  await c.counters.updateOne({ _id: PRIVACY_AUDIT_COUNTER }, { $setOnInsert: { value: 0 } }, { upsert: true });
}

async function audit(c: Collections, session: ClientSession, entry: Omit<PrivacyAuditEntry, 'seq'>): Promise<PrivacyAuditEntry> {
  const counter = await c.counters.findOneAndUpdate({ _id: PRIVACY_AUDIT_COUNTER }, { $inc: { value: 1 } }, { upsert: true, returnDocument: 'after', session });
  const doc: PrivacyAuditDoc = { _id: counter!.value, ...entry };
  await c.privacyAudit.insertOne(doc, { session });
  return toAudit(doc);
}

type PrivacyMethods = Pick<
  Store,
  'placeHold' | 'releaseHold' | 'getHold' | 'holdsOn' | 'subjectReports' | 'subjectRecords' | 'eraseSubject' | 'recordPrivacyAudit' | 'privacyAudit'
>;

/** Holds, the audit and erasure in the MongoDB store (collections `privacy_holds`, `privacy_audit`). */
export function privacyMethods(client: MongoClient, c: Collections): PrivacyMethods {
  const holdsOn: PrivacyMethods['holdsOn'] = async (targets, at) => {
    if (targets.length === 0) return [];
    const docs = await c.privacyHolds
      .find({ $and: [{ $or: targets.map((t) => ({ targetType: t.type, targetId: t.id })) }, ...(at === null ? [] : [activeAt(at)])] })
      .toArray();
    return docs.sort((a, b) => a.placedAt - b.placedAt || a._id.localeCompare(b._id)).map(toHold);
  };

  const pageOf = async (st: Pick<ErasureStep, 'subject' | 'cursor' | 'limit'>, session?: ClientSession): Promise<{ reports: ReportRecord[]; cursor: string | null }> => {
    // limit(0) would mean "no limit" to MongoDB.
    if (st.limit <= 0) return { reports: [], cursor: st.cursor };
    const s = st.subject;
    let docs: ReportDoc[];
    if (s.kind === 'player') {
      // reports_by_user_time, newest first, after a (receivedAt, _id) cursor.
      const after = st.cursor === null ? null : (JSON.parse(st.cursor) as [number, string]);
      const filter = after === null ? { userId: s.userId } : { userId: s.userId, $or: [{ receivedAt: { $lt: after[0] } }, { receivedAt: after[0], _id: { $lt: after[1] } }] };
      docs = await c.reports.find(filter, { session }).sort({ receivedAt: -1, _id: -1 }).limit(st.limit).toArray();
    } else {
      const after = st.cursor === null ? null : (JSON.parse(st.cursor) as string);
      docs = await c.reports
        .find({ reporterPlatform: s.platform, reporterId: s.reporterId, ...(after === null ? {} : { _id: { $gt: after } }) }, { session })
        .sort({ _id: 1 })
        .limit(st.limit)
        .toArray();
    }
    const reports = docs.map(toReport);
    const last = reports.at(-1);
    return { reports, cursor: reports.length === st.limit && last ? JSON.stringify(s.kind === 'player' ? [last.receivedAt, last.id] : last.id) : null };
  };

  /** One step, inside a transaction; a dry run reads the same and writes nothing. */
  const step = async (st: ErasureStep, session: ClientSession): Promise<ErasureStepOutcome> => {
    const out: ErasureStepOutcome = { reports: 0, evidenceItems: 0, unheldBlobs: [], appeals: 0, sanctions: 0, user: false, reporterStats: false, outcomes: 0, directMessages: 0, openCaseUsers: [], kept: [], cursor: null };
    const write = !st.dryRun;
    const page = await pageOf(st, session);
    out.cursor = page.cursor;
    const holds = await holdsAt(c, session, st.at);
    const kept = (kind: string, id: string, holdId: string) => out.kept.push({ kind, id, reason: 'legal_hold', holdId });

    const deletedIds: string[] = [];
    const hashes = new Set<string>();
    const openUsers = new Set<string>();
    const player = st.subject.kind === 'player';
    for (const r of page.reports) {
      const hold = await holds.ofCase(r.caseId, r.userId);
      if (hold) {
        kept('report', r.id, hold);
        continue;
      }
      // A player's names and free text go; a reporter's free text, and their id for the pseudonym.
      const erased = scrubbedReport(r, { names: player, text: true, reporter: player ? null : st.pseudonym }, st.keep);
      if (reportScrubChanged(r, erased)) {
        out.reports += 1;
        if (write) await c.reports.updateOne({ _id: r.id }, { $set: erased }, { session });
        if (!player) {
          const outcome = await c.reportOutcomes.findOne({ _id: r.id }, { session, projection: { _id: 1 } });
          if (outcome) {
            out.outcomes += 1;
            if (write) await c.reportOutcomes.updateOne({ _id: r.id }, { $set: { reporterId: st.pseudonym } }, { session });
          }
        }
      }
      if (!player) {
        const kase = await c.cases.findOne({ _id: r.caseId }, { session, projection: { open: 1, userId: 1 } });
        if (kase?.open === true) openUsers.add(kase.userId);
      }
      const evidence = await deleteReportEvidence(c, session, r.id, st.at, 'erased on request', write);
      out.evidenceItems += evidence.items;
      deletedIds.push(...evidence.ids);
      for (const sha256 of evidence.hashes) hashes.add(sha256);
    }
    out.unheldBlobs = await unheldOf(c, session, hashes, deletedIds);
    out.openCaseUsers = [...openUsers];
    if (out.cursor !== null) return out;

    const s = st.subject;
    if (s.kind === 'reporter') {
      const stats = await c.reporterStats.findOne({ platform: s.platform, reporterId: s.reporterId }, { session, projection: { _id: 1 } });
      out.reporterStats = stats !== null;
      if (stats && write) await c.reporterStats.deleteOne({ platform: s.platform, reporterId: s.reporterId }, { session });
      if (s.platform === 'chatplatform') {
        // The recorder's DMs to the reporter: recipient, text and dedupe key (it names them) replaced;
        // their deliveries through a chat platform's API (dm-<decisionId>-<reporterId>) deleted.
        const dms = { channel: dmChannel(s.reporterId) };
        out.directMessages = write
          ? (await c.messages.updateMany(dms, [{ $set: { channel: dmChannel(st.pseudonym), content: ERASED_TEXT, dedupeKey: { $concat: ['dm-erased-', { $toString: '$_id' }] } } }], { session })).modifiedCount
          : await c.messages.countDocuments(dms, { session });
        const suffix = dmKeySuffix(s.reporterId).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        if (write) await c.deliveries.deleteMany({ _id: { $gte: 'dm-', $lt: 'dm.', $regex: `${suffix}$` } }, { session });
      }
      return out;
    }
    // The retention sweep's erasedPlayers ends the player's id once nothing needs it (retention.ts).
    if (write) await c.erasedPlayers.updateOne({ _id: s.userId }, { $max: { erasedAt: st.at } }, { upsert: true, session });
    const playerHold = await holds.on({ type: 'player', id: s.userId });
    const user = await c.users.findOne({ _id: s.userId }, { session, projection: { _id: 1 } });
    if (user && playerHold) kept('user', s.userId, playerHold);
    if (user && !playerHold) {
      out.user = true;
      if (write) await c.users.deleteOne({ _id: s.userId }, { session });
    }
    const sanctionHeld = new Map<string, string>();
    for (const doc of await c.sanctions.find({ userId: s.userId }, { session }).sort({ createdAt: -1, _id: -1 }).toArray()) {
      const sanction = toSanction(doc);
      const hold = (await holds.on({ type: 'sanction', id: sanction.id })) ?? (await holds.ofCase(sanction.caseId, s.userId));
      if (hold) {
        sanctionHeld.set(sanction.id, hold);
        kept('sanction', sanction.id, hold);
        continue;
      }
      if (sanction.state === 'active' || sanction.state === 'scheduled') out.kept.push({ kind: 'sanction', id: sanction.id, reason: 'active_sanction' });
      if (await eraseSanction(c, session, sanction, write)) out.sanctions += 1;
    }
    for (const doc of await c.appeals.find({ userId: s.userId }, { session }).sort({ userId: 1, createdAt: 1, _id: 1 }).toArray()) {
      const appeal = toAppeal(doc);
      const hold = sanctionHeld.get(appeal.sanctionId);
      if (hold) {
        kept('appeal', appeal.id, hold);
        continue;
      }
      if (await eraseAppeal(c, session, appeal, write)) out.appeals += 1;
    }
    return out;
  };

  return {
    placeHold: (hold) =>
      runTransaction(client, async (session) => {
        const existing = await c.privacyHolds.findOne({ _id: hold.id }, { session });
        if (existing) return { hold: toHold(existing), created: false };
        const doc: HoldDoc = { _id: hold.id, targetType: hold.target.type, targetId: hold.target.id, reason: hold.reason, until: hold.until, placedBy: hold.placedBy, placedAt: hold.placedAt, releasedAt: null, releasedBy: null, releaseReason: null };
        await c.privacyHolds.insertOne(doc, { session });
        await audit(c, session, { action: 'hold', requestId: hold.id, subjectRef: holdTargetRef(hold.target), actor: hold.placedBy, at: hold.placedAt, detail: { target: hold.target.type, until: hold.until ?? 'released' } });
        return { hold: toHold(doc), created: true };
      }),
    releaseHold: (r) =>
      runTransaction(client, async (session) => {
        const doc = await c.privacyHolds.findOneAndUpdate({ _id: r.id, ...activeAt(r.at) }, { $set: { releasedAt: r.at, releasedBy: r.by, releaseReason: r.reason } }, { session, returnDocument: 'after' });
        if (!doc) return null;
        const hold = toHold(doc);
        await audit(c, session, { action: 'release', requestId: r.id, subjectRef: holdTargetRef(hold.target), actor: r.by, at: r.at, detail: { target: hold.target.type } });
        return hold;
      }),
    async getHold(id) {
      const doc = await c.privacyHolds.findOne({ _id: id });
      return doc ? toHold(doc) : null;
    },
    holdsOn,
    subjectReports: (subject, cursor, limit) => pageOf({ subject, cursor, limit }),
    async subjectRecords(subject) {
      if (subject.kind === 'reporter') {
        const stats = await c.reporterStats.findOne({ platform: subject.platform, reporterId: subject.reporterId });
        const outcomes = await c.reportOutcomes.find({ platform: subject.platform, reporterId: subject.reporterId }).sort({ platform: 1, reporterId: 1, seq: -1 }).limit(10_000).toArray();
        return {
          user: null,
          cases: [],
          sanctions: [],
          appeals: [],
          reporterStats: stats ? { platform: stats.platform, id: stats.reporterId, approved: stats.approved, dismissed: stats.dismissed } : null,
          outcomes: outcomes.reverse().map((o) => ({ seq: o.seq, reportId: o._id, caseId: o.caseId, actioned: o.actioned, reopened: o.reopened, at: o.at })),
          holds: [],
        };
      }
      const user = await c.users.findOne({ _id: subject.userId });
      // A player's cases through their reports (reports_by_user_time): cases are indexed by player only while open.
      const caseIds = (await c.reports.distinct('caseId', { userId: subject.userId })) as string[];
      const caseDocs = caseIds.length === 0 ? [] : await c.cases.find({ _id: { $in: caseIds } }).toArray();
      const cases = [];
      for (const d of caseDocs.sort((a, b) => a.createdAt - b.createdAt || a._id.localeCompare(b._id))) {
        cases.push({ case: toCase(d), history: (await c.events.find({ caseId: d._id }).sort({ caseId: 1, seq: 1 }).toArray()).map(toEvent) });
      }
      const sanctions = (await c.sanctions.find({ userId: subject.userId }).sort({ createdAt: -1, _id: -1 }).toArray()).map(toSanction);
      const appeals = (await c.appeals.find({ userId: subject.userId }).sort({ userId: 1, createdAt: 1, _id: 1 }).toArray()).map(toAppeal);
      const targets: HoldTarget[] = [{ type: 'player', id: subject.userId }, ...cases.map((x) => ({ type: 'case' as const, id: x.case.id })), ...sanctions.map((x) => ({ type: 'sanction' as const, id: x.id }))];
      return { user: user ? toUser(user) : null, cases, sanctions, appeals, reporterStats: null, outcomes: [], holds: await holdsOn(targets, null) };
    },
    eraseSubject: (st) => runTransaction(client, (session) => step(st, session)),
    recordPrivacyAudit: (entry) => runTransaction(client, (session) => audit(c, session, entry)),
    async privacyAudit(afterSeq, limit) {
      if (limit <= 0) return [];
      return (await c.privacyAudit.find({ _id: { $gt: afterSeq } }).sort({ _id: 1 }).limit(limit).toArray()).map(toAudit);
    },
  };
}
