import type { AnyBulkWriteOperation, ClientSession, MongoClient } from 'mongodb';
import type { CaseState, RetentionKeptReason, RetentionStep, RetentionStepOutcome, Store } from '@rm/storage';
import {
  CASE_RETENTION,
  decodeRetentionCursor,
  isCaseRetentionKind,
  isPseudonym,
  newPseudonym,
  nextRetentionCursor,
  pseudonymisedResult,
  reportScrubChanged,
  retentionMarkKey,
  scrubbedReport,
  type CaseRetentionKind,
  type RetentionPosition,
} from '@rm/storage/adapter';
import type { Collections } from './collections.js';
import { toAppeal, toCaseMessage, toReport, type AppealDoc, type CaseDoc, type ReportDoc, type ReportOutcomeDoc } from './documents.js';
import { caseIdIn, numberIn } from './partial-filters.js';
import { deleteReportEvidence, eraseAppeal, eraseSanction, heldCases, holdsAt, scrubEvidenceDetails, unheldOf } from './privacy-rules.js';
import { toSanction } from './sanctions.js';
import { runTransaction } from './transactions.js';

/** The note on evidence a dismissed case's retention deleted (its audit entry). */
const RETENTION_NOTE = 'retention';

/** Decided cases of one state by decision time then id, for the sweep's pages: partial on the state (an equality works on every server version). */
const CASE_INDEXES: Record<'approved' | 'dismissed', string> = { approved: 'cases_approved_by_time', dismissed: 'cases_dismissed_by_time' };

/** The retention collections' indexes (indexes.ts calls this). Open cases are in none: a stored report does not pay for them. */
export async function ensureRetentionIndexes(c: Collections): Promise<void> {
  await c.cases.createIndexes(
    (Object.entries(CASE_INDEXES) as ['approved' | 'dismissed', string][]).map(([state, name]) => ({ key: { updatedAt: 1, _id: 1 }, name, partialFilterExpression: { state } })),
  );
  // Decided appeals by decision time then id; a query repeats the `$type` (partial-filters.ts).
  await c.appeals.createIndexes([{ key: { decidedAt: 1, _id: 1 }, name: 'appeals_decided_by_id', partialFilterExpression: { decidedAt: { $type: 'number' } } }]);
  await c.retentionWaiting.createIndexes([{ key: { kind: 1, id: 1 }, name: 'retention_waiting_by_kind' }]);
}

const emptyOutcome = (): RetentionStepOutcome => ({ examined: 0, erased: 0, kept: {}, evidenceItems: 0, unheldBlobs: [], caseMessages: [], erasedIds: [], cursor: null });

const keep = (out: RetentionStepOutcome, reason: RetentionKeptReason) => {
  out.kept[reason] = (out.kept[reason] ?? 0) + 1;
};

/**
 * The retention sweep on the MongoDB store (docs/privacy.md#retention), as on SQLite: decided cases
 * by state and decision time from the mark where the last sweep of the kind stopped
 * (`retention_marks`), then the cases something kept (`retention_waiting`) again; appeals likewise;
 * the privacy audit by seq. Each step is one transaction; a dry run's is aborted.
 */
export function retentionMethods(client: MongoClient, c: Collections): Pick<Store, 'sweepRetention'> {
  const markOf = async (key: string, session: ClientSession): Promise<[number, string]> => {
    const mark = await c.retentionMarks.findOne({ _id: key }, { session });
    return mark ? [mark.at, mark.id] : [-1, ''];
  };
  const setMark = (key: string, at: number, id: string, session: ClientSession) => c.retentionMarks.updateOne({ _id: key }, { $set: { at, id } }, { upsert: true, session });
  const waitingIds = async (kind: string, after: string, limit: number, session: ClientSession) =>
    (await c.retentionWaiting.find({ kind, id: { $gt: after } }, { session, projection: { id: 1 } }).sort({ kind: 1, id: 1 }).limit(limit).toArray()).map((d) => d.id);
  const wait = (kind: string, id: string, session: ClientSession) => c.retentionWaiting.updateOne({ _id: `${kind}/${id}` }, { $setOnInsert: { kind, id } }, { upsert: true, session });
  const unwait = (kind: string, id: string, session: ClientSession) => c.retentionWaiting.deleteOne({ _id: `${kind}/${id}` }, { session });

  /** The player's id on a case, its reports, its decisions (and their answers) and its SLA breaches becomes `player`. */
  const pseudonymiseCase = async (kase: Pick<CaseDoc, '_id' | 'userId'>, reportIds: string[], player: string, session: ClientSession) => {
    // A new shard key value: single-document updates, each named by its old key, inside the
    // transaction (as MongoDB requires); the reports' in one bulk write, one round trip.
    await c.cases.updateOne({ _id: kase._id, userId: kase.userId }, { $set: { userId: player } }, { session });
    if (reportIds.length > 0) await c.reports.bulkWrite(reportIds.map((id) => ({ updateOne: { filter: { _id: id, userId: kase.userId }, update: { $set: { userId: player } } } })), { session });
    const events = await c.events.find({ caseId: kase._id }, { session }).sort({ caseId: 1, seq: 1 }).toArray();
    if (events.length > 0) {
      await c.events.bulkWrite(events.map((e) => ({ updateOne: { filter: { _id: e._id }, update: { $set: { userId: player, result: pseudonymisedResult(e.result, kase.userId, player) } } } })), { session });
    }
    // A case's SLA breaches are `<case id>:<opening id>`.
    await c.slaBreaches.updateMany({ _id: { $gte: `${kase._id}:`, $lt: `${kase._id};` } }, { $set: { userId: player } }, { session });
  };

  /** The player's id on a sanction, its feed events and its appeal becomes `player`. */
  const pseudonymiseSanction = async (sanctionId: string, player: string, session: ClientSession) => {
    await c.sanctions.updateOne({ _id: sanctionId }, { $set: { userId: player } }, { session });
    await c.sanctionEvents.updateMany({ sanctionId }, { $set: { userId: player } }, { session });
    await c.appeals.updateOne({ sanctionId }, { $set: { userId: player } }, { session });
  };

  /** A case loses what `kind` takes; true when anything changed. */
  const retainCase = async (kind: CaseRetentionKind, kase: CaseDoc, st: RetentionStep, out: RetentionStepOutcome, evidence: { hashes: Set<string>; ids: string[] }, session: ClientSession): Promise<boolean> => {
    const spec = CASE_RETENTION[kind];
    // reports_by_case.
    const reports = (await c.reports.find({ caseId: kase._id }, { session }).sort({ caseId: 1, receivedAt: 1, _id: 1 }).toArray()).map(toReport);
    let changed = false;
    // One pseudonym per reporter of the case: its count of distinct reporters stays.
    const pseudonyms = new Map<string, string>();
    const pseudonymOf = (platform: string, id: string) => {
      const key = `${platform}\u0000${id}`;
      if (!pseudonyms.has(key)) pseudonyms.set(key, newPseudonym());
      return pseudonyms.get(key)!;
    };
    // The reports' changes in one bulk write each (a round trip, not one per report), with the shard key (userId).
    const reportWrites: AnyBulkWriteOperation<ReportDoc>[] = [];
    const outcomeWrites: AnyBulkWriteOperation<ReportOutcomeDoc>[] = [];
    for (const r of reports) {
      const reporter = spec.reporter && !isPseudonym(r.reporterId) ? pseudonymOf(r.reporterPlatform, r.reporterId) : null;
      const next = scrubbedReport(r, { names: spec.names, text: spec.text, reporter }, st.keep);
      if (!reportScrubChanged(r, next)) continue;
      changed = true;
      reportWrites.push({ updateOne: { filter: { _id: r.id, userId: r.userId }, update: { $set: next } } });
      if (reporter !== null) outcomeWrites.push({ updateOne: { filter: { _id: r.id }, update: { $set: { reporterId: reporter } } } });
    }
    if (reportWrites.length > 0) await c.reports.bulkWrite(reportWrites, { session });
    if (outcomeWrites.length > 0) await c.reportOutcomes.bulkWrite(outcomeWrites, { session });
    if (spec.text) await scrubEvidenceDetails(c, session, reports.map((r) => r.id));
    if (spec.whole) {
      for (const r of reports) {
        const deleted = await deleteReportEvidence(c, session, r.id, st.at, RETENTION_NOTE, true);
        out.evidenceItems += deleted.items;
        evidence.ids.push(...deleted.ids);
        for (const sha256 of deleted.hashes) evidence.hashes.add(sha256);
        if (deleted.items > 0) changed = true;
      }
    }
    // The case's sanctions have ended (an active one keeps the case): their free text goes with the reports'.
    // sanctions_by_user: the player's sanctions, those of the case among them.
    const sanctions = spec.text || spec.whole ? await c.sanctions.find({ userId: kase.userId, caseId: kase._id }, { session }).toArray() : [];
    if (spec.text) for (const doc of sanctions) if (await eraseSanction(c, session, toSanction(doc), true)) changed = true;
    if (spec.whole && !isPseudonym(kase.userId)) {
      const player = newPseudonym();
      await pseudonymiseCase(kase, reports.map((r) => r.id), player, session);
      // A sanction an undone approval set, lifted since: its feed events and appeal name the player too.
      for (const s of sanctions) await pseudonymiseSanction(s._id, player, session);
      changed = true;
    }
    if (spec.message) {
      const message = await c.caseMessages.findOne({ _id: kase._id }, { session });
      if (message) {
        out.caseMessages.push({ ...toCaseMessage(message), state: kase.state, reports: reports.length });
        changed = true;
      }
    }
    if (changed) out.erasedIds.push(kase._id, ...reports.map((r) => r.id));
    return changed;
  };

  /** Of these due cases, why each must keep its data now (absent: nothing keeps it): a hold, an active sanction, a waiting appeal. */
  const keptCases = async (cases: CaseDoc[], at: number, session: ClientSession): Promise<Map<string, RetentionKeptReason>> => {
    const reasons = new Map<string, RetentionKeptReason>();
    if (cases.length === 0) return reasons;
    const ids = cases.map((k) => k._id);
    // sanctions_active_by_case_v2 and appeals_by_case, one after the other (a session runs one operation at a time).
    const active = await c.sanctions.find({ ...caseIdIn(ids), state: 'active' }, { projection: { caseId: 1 }, session }).toArray();
    const appealed = await c.appeals.find({ ...caseIdIn(ids), state: { $in: ['open', 'claimed'] } }, { projection: { caseId: 1 }, session }).toArray();
    const held = await heldCases(c, session, cases, at);
    for (const d of appealed) reasons.set(d.caseId!, 'open_appeal');
    for (const d of active) reasons.set(d.caseId!, 'active_sanction');
    for (const id of held) reasons.set(id, 'legal_hold');
    return reasons;
  };

  const caseStep = async (kind: CaseRetentionKind, st: RetentionStep, at: RetentionPosition, out: RetentionStepOutcome, session: ClientSession): Promise<string | null> => {
    const states: CaseState[] = CASE_RETENTION[kind].states;
    const evidence = { hashes: new Set<string>(), ids: [] as string[] };
    const examine = async (cases: CaseDoc[], waiting: boolean) => {
      const due = cases.filter((k) => states.includes(k.state) && k.updatedAt < st.before);
      // Undone since, or decided again: the `new` phase finds them when their time comes.
      if (waiting) for (const k of cases) if (!due.includes(k)) await unwait(kind, k._id, session);
      const reasons = await keptCases(due, st.at, session);
      for (const k of due) {
        out.examined += 1;
        const reason = reasons.get(k._id);
        if (reason !== undefined) {
          keep(out, reason);
          if (!waiting) await wait(kind, k._id, session);
          continue;
        }
        if (await retainCase(kind, k, st, out, evidence, session)) out.erased += 1;
        if (waiting) await unwait(kind, k._id, session);
      }
    };
    let cursor: string | null;
    if (at.phase === 'waiting') {
      const ids = await waitingIds(kind, at.after, st.limit, session);
      const found = ids.length === 0 ? [] : await c.cases.find({ _id: { $in: ids } }, { session }).toArray();
      for (const id of ids) if (!found.some((k) => k._id === id)) await unwait(kind, id, session);
      await examine(found.sort((a, b) => a._id.localeCompare(b._id)), true);
      cursor = nextRetentionCursor(kind, at, { full: ids.length === st.limit, last: ids.at(-1) });
    } else {
      if (at.phase !== 'new') throw new Error(`a case kind has no ${at.phase} phase`);
      const state = at.state as 'approved' | 'dismissed';
      const key = retentionMarkKey(kind, state);
      const [afterAt, afterId] = at.after ?? (await markOf(key, session));
      // cases_<state>_by_time; each branch repeats the partial filter's state.
      const rows = await c.cases
        .find({ state, updatedAt: { $lt: st.before }, $or: [{ state, updatedAt: { $gt: afterAt } }, { state, updatedAt: afterAt, _id: { $gt: afterId } }] }, { session })
        .sort({ updatedAt: 1, _id: 1 })
        .limit(st.limit)
        .toArray();
      await examine(rows, false);
      const last = rows.at(-1);
      if (last) await setMark(key, last.updatedAt, last._id, session);
      cursor = nextRetentionCursor(kind, at, { full: rows.length === st.limit, last: last ? [last.updatedAt, last._id] : undefined });
    }
    out.unheldBlobs = await unheldOf(c, session, evidence.hashes, evidence.ids);
    return cursor;
  };

  const appealStep = async (st: RetentionStep, at: RetentionPosition, out: RetentionStepOutcome, session: ClientSession): Promise<string | null> => {
    const kind = st.kind;
    const holds = await holdsAt(c, session, st.at);
    const examine = async (doc: AppealDoc, waiting: boolean) => {
      const a = toAppeal(doc);
      if (a.decidedAt === null || a.decidedAt >= st.before) {
        if (waiting) await unwait(kind, a.id, session);
        return;
      }
      out.examined += 1;
      if ((await holds.on({ type: 'sanction', id: a.sanctionId })) ?? (await holds.ofCase(a.caseId, a.userId))) {
        keep(out, 'legal_hold');
        if (!waiting) await wait(kind, a.id, session);
        return;
      }
      if (await eraseAppeal(c, session, a, true)) {
        out.erased += 1;
        out.erasedIds.push(a.id);
      }
      if (waiting) await unwait(kind, a.id, session);
    };
    if (at.phase === 'waiting') {
      const ids = await waitingIds(kind, at.after, st.limit, session);
      const found = ids.length === 0 ? [] : await c.appeals.find({ _id: { $in: ids } }, { session }).toArray();
      for (const id of ids) {
        const doc = found.find((d) => d._id === id);
        if (doc) await examine(doc, true);
        else await unwait(kind, id, session);
      }
      return nextRetentionCursor(kind, at, { full: ids.length === st.limit, last: ids.at(-1) });
    }
    const key = retentionMarkKey(kind, null);
    const [afterAt, afterId] = at.phase === 'new' && at.after ? at.after : await markOf(key, session);
    // appeals_decided_by_id; each branch repeats the partial filter's `$type`.
    const rows = await c.appeals
      .find({ decidedAt: numberIn({ $lt: st.before }), $or: [{ decidedAt: numberIn({ $gt: afterAt }) }, { decidedAt: { $eq: afterAt, $type: 'number' as 'double' }, _id: { $gt: afterId } }] }, { session })
      .sort({ decidedAt: 1, _id: 1 })
      .limit(st.limit)
      .toArray();
    for (const doc of rows) await examine(doc, false);
    const last = rows.at(-1);
    if (last) await setMark(key, last.decidedAt!, last._id, session);
    return nextRetentionCursor(kind, at, { full: rows.length === st.limit, last: last ? [last.decidedAt!, last._id] : undefined });
  };

  /** The privacy audit's oldest entries, by seq (`_id`), up to the first not yet due. */
  const auditStep = async (st: RetentionStep, at: RetentionPosition, out: RetentionStepOutcome, session: ClientSession): Promise<string | null> => {
    const after = at.phase === 'entries' ? at.after : 0;
    const rows = await c.privacyAudit.find({ _id: { $gt: after } }, { session, projection: { _id: 1, at: 1 } }).sort({ _id: 1 }).limit(st.limit).toArray();
    const due: number[] = [];
    for (const row of rows) {
      if (row.at >= st.before) break;
      due.push(row._id);
    }
    if (due.length > 0) await c.privacyAudit.deleteMany({ _id: { $in: due } }, { session });
    out.examined += due.length;
    out.erased += due.length;
    return nextRetentionCursor(st.kind, at, { full: rows.length === st.limit, last: due.at(-1), stop: due.length < rows.length });
  };

  /**
   * Erased players, by id: each whose id nothing needs any more (no sanction active or scheduled,
   * none started since `before`, no appeal waiting, no open case, no hold on them, their cases or
   * sanctions) takes a pseudonym on the documents from before their erasure, and leaves the list.
   */
  const playerStep = async (st: RetentionStep, at: RetentionPosition, out: RetentionStepOutcome, session: ClientSession): Promise<string | null> => {
    const holds = await holdsAt(c, session, st.at);
    const after = at.phase === 'waiting' ? at.after : '';
    const rows = await c.erasedPlayers.find({ _id: { $gt: after } }, { session }).sort({ _id: 1 }).limit(st.limit).toArray();
    for (const { _id: userId, erasedAt } of rows) {
      out.examined += 1;
      // sanctions_by_user, appeals_by_user; the player's cases through their reports (reports_by_user_time).
      const sanctions = (await c.sanctions.find({ userId }, { session }).toArray()).map(toSanction);
      // A $group, not distinct: distinct is refused in a transaction on a sharded collection.
      const caseIds = (await c.reports.aggregate<{ _id: string }>([{ $match: { userId } }, { $group: { _id: '$caseId' } }], { session }).toArray()).map((d) => d._id);
      const cases = caseIds.length === 0 ? [] : await c.cases.find({ _id: { $in: caseIds } }, { session }).toArray();
      let reason: RetentionKeptReason | null = null;
      const targets = [{ type: 'player' as const, id: userId }, ...cases.map((k) => ({ type: 'case' as const, id: k._id })), ...sanctions.map((s) => ({ type: 'sanction' as const, id: s.id }))];
      for (const t of targets) if (reason === null && (await holds.on(t)) !== null) reason = 'legal_hold';
      if (reason === null && sanctions.some((s) => s.state === 'active' || s.state === 'scheduled')) reason = 'active_sanction';
      if (reason === null && (await c.appeals.findOne({ userId, state: { $in: ['open', 'claimed'] } }, { session, projection: { _id: 1 } })) !== null) reason = 'open_appeal';
      if (reason === null && cases.some((k) => k.open === true)) reason = 'open_case';
      // The ladder counts the sanctions started within its lookback, lifted ones aside (ladder.ts).
      if (reason === null && sanctions.some((s) => s.state !== 'lifted' && (s.effectiveAt ?? s.createdAt) >= st.before)) reason = 'ladder_lookback';
      if (reason !== null) {
        keep(out, reason);
        continue;
      }
      // What the erasure covered: the documents from before it. Later cases and sanctions are other data.
      const player = newPseudonym();
      for (const k of cases) {
        if (k.createdAt > erasedAt) continue;
        const reportIds = (await c.reports.find({ caseId: k._id, userId }, { session, projection: { _id: 1 } }).sort({ caseId: 1, receivedAt: 1, _id: 1 }).toArray()).map((r) => r._id);
        await pseudonymiseCase(k, reportIds, player, session);
      }
      for (const s of sanctions) if (s.createdAt <= erasedAt) await pseudonymiseSanction(s.id, player, session);
      await c.erasedPlayers.deleteOne({ _id: userId }, { session });
      out.erased += 1;
      out.erasedIds.push(userId);
    }
    return nextRetentionCursor(st.kind, at, { full: rows.length === st.limit, last: rows.at(-1)?._id });
  };

  const step = async (st: RetentionStep, session: ClientSession): Promise<RetentionStepOutcome> => {
    const out = emptyOutcome();
    const at = decodeRetentionCursor(st);
    if (isCaseRetentionKind(st.kind)) out.cursor = await caseStep(st.kind, st, at, out, session);
    else if (st.kind === 'appealStatements') out.cursor = await appealStep(st, at, out, session);
    else if (st.kind === 'erasedPlayers') out.cursor = await playerStep(st, at, out, session);
    else out.cursor = await auditStep(st, at, out, session);
    return out;
  };

  return {
    async sweepRetention(st) {
      // limit(0) would mean "no limit" to MongoDB.
      if (st.limit <= 0) return { ...emptyOutcome(), cursor: st.cursor };
      try {
        return await runTransaction(client, async (session) => {
          const out = await step(st, session);
          // A dry run computes inside the transaction, then aborts it.
          if (st.dryRun) throw new DryRun(out);
          return out;
        });
      } catch (err) {
        if (err instanceof DryRun) return err.outcome;
        throw err;
      }
    },
  };
}

/** Thrown out of a dry run's transaction so that it aborts, carrying what it would have done. */
class DryRun extends Error {
  constructor(readonly outcome: RetentionStepOutcome) {
    super('dry run');
  }
}
