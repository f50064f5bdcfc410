import type { AnyBulkWriteOperation } from 'mongodb';
import { DECIDED_STATES, type CaseState } from '@rm/storage';
import type { ReporterStatsDoc, SanctionDoc } from './documents.js';
import type { MigrationPage } from './migration-pages.js';
import { appendOutcomes, type PendingOutcome } from './reporter-outcomes.js';

/**
 * The pages of the MongoDB backfills (migrations.ts runs them): each reads the next `limit`
 * documents by `_id` (the _id index, so a page costs the same at the start of history and at its
 * end) and writes what they owe, in the transaction that records the page.
 */

const isDecided = (state: CaseState) => DECIDED_STATES.includes(state);

/**
 * Reporter credibility on a database that used MongoDB before triage: each distinct reporter of
 * each case already decided counts that case once, as approved or dismissed (the SQLite store's
 * migration 7 does the same).
 *
 * The counts are added page by page ($inc). A page's counts and the cursor past its cases commit
 * together, and a page is re-run only from the cursor recorded, so every case is counted once
 * however often the run is stopped, resumed or run twice at once. Adding is exact only if nothing
 * else counts a decision while the backfill runs (the one-transaction recount it replaces *set*
 * the counts from one snapshot instead, so that decisions counted by newer processes before it
 * were not counted twice; that cannot be made exact across pages while decisions commit). It
 * holds: a process of this version does not decide before every migration is recorded (it waits
 * for them at start, or runs them first), and versions before triage count nothing. A decision
 * such a version takes while the backfill runs is counted if its case is still ahead of the
 * cursor, not if it is behind (and none of that version's later decisions is ever counted): run
 * the migration before rolling the Deployments, the documented order (docs/kubernetes.md).
 */
export const reporterStatsPage: MigrationPage = async (c, session, after, limit) => {
  const cases = await c.cases.find({ _id: { $gt: after } }, { projection: { state: 1 }, session }).sort({ _id: 1 }).limit(limit).toArray();
  const decided = new Map(cases.filter((k) => isDecided(k.state)).map((k) => [k._id, k.state]));
  if (decided.size > 0) {
    const pairs = await c.reports
      .aggregate<{ _id: { caseId: string; platform: string; reporterId: string } }>(
        [{ $match: { caseId: { $in: [...decided.keys()] } } }, { $group: { _id: { caseId: '$caseId', platform: '$reporterPlatform', reporterId: '$reporterId' } } }],
        { session },
      )
      .toArray();
    const counts = new Map<string, ReporterStatsDoc>();
    for (const { _id: p } of pairs) {
      const key = JSON.stringify([p.platform, p.reporterId]);
      const n = counts.get(key) ?? { platform: p.platform, reporterId: p.reporterId, approved: 0, dismissed: 0 };
      if (decided.get(p.caseId) === 'approved') n.approved++;
      else n.dismissed++;
      counts.set(key, n);
    }
    const ops: AnyBulkWriteOperation<ReporterStatsDoc>[] = [...counts.values()].map((n) => ({
      updateOne: { filter: { platform: n.platform, reporterId: n.reporterId }, update: { $inc: { approved: n.approved, dismissed: n.dismissed } }, upsert: true },
    }));
    if (ops.length > 0) await c.reporterStats.bulkWrite(ops, { session, ordered: true });
  }
  return { count: cases.length, last: cases.at(-1)?._id ?? null };
};

/**
 * Reporter outcomes on a database that used MongoDB before them: each report of a case already
 * decided gets its outcome, at the time of the decision that put its case in its state (its
 * latest event into that state; the case's last change when it has none), as the SQLite store's
 * migration 11 does. A report that already has an outcome (recorded by a process of this version
 * that decided its case) keeps it.
 *
 * Seqs are taken page by page: a page's outcomes are in decision order (then receipt, then id),
 * and pages follow case ids, so over the whole history a reporter's backfilled outcomes are in
 * decision order within each page, not across pages (one transaction over the whole history
 * sorted them all, and did not scale). The seqs come from the outcome counter inside the page's
 * transaction, so a decision committing meanwhile conflicts with the page and one of the two
 * retries after the other: seq order stays commit order, and a reader's cursor skips nothing.
 */
export const reportOutcomesPage: MigrationPage = async (c, session, after, limit) => {
  const cases = await c.cases.find({ _id: { $gt: after } }, { projection: { state: 1, updatedAt: 1 }, session }).sort({ _id: 1 }).limit(limit).toArray();
  const decided = new Map(cases.filter((k) => isDecided(k.state)).map((k) => [k._id, k]));
  if (decided.size > 0) {
    const ids = [...decided.keys()];
    const decisions = new Map<string, { seq: number; at: number }>();
    const events = await c.events.find({ caseId: { $in: ids }, toState: { $in: [...DECIDED_STATES] } }, { projection: { caseId: 1, toState: 1, seq: 1, at: 1 }, session }).toArray();
    for (const e of events) {
      if (e.toState !== decided.get(e.caseId)?.state) continue;
      if ((decisions.get(e.caseId)?.seq ?? -Infinity) < e.seq) decisions.set(e.caseId, { seq: e.seq, at: e.at });
    }
    const reports = await c.reports.find({ caseId: { $in: ids } }, { projection: { reporterPlatform: 1, reporterId: 1, caseId: 1, receivedAt: 1 }, session }).toArray();
    const known = new Set((await c.reportOutcomes.find({ _id: { $in: reports.map((r) => r._id) } }, { projection: { _id: 1 }, session }).toArray()).map((o) => o._id));
    const pending = reports
      .filter((r) => !known.has(r._id))
      .map((r) => {
        const kase = decided.get(r.caseId)!;
        const outcome: PendingOutcome = {
          _id: r._id,
          platform: r.reporterPlatform,
          reporterId: r.reporterId,
          caseId: r.caseId,
          actioned: kase.state === 'approved',
          reopened: false,
          at: decisions.get(r.caseId)?.at ?? kase.updatedAt,
        };
        return { outcome, receivedAt: r.receivedAt };
      })
      .sort((a, b) => a.outcome.at - b.outcome.at || a.receivedAt - b.receivedAt || compare(a.outcome._id, b.outcome._id));
    await appendOutcomes(c, session, pending.map((p) => p.outcome));
  }
  return { count: cases.length, last: cases.at(-1)?._id ?? null };
};

/** Strings in code-unit order, as MongoDB orders ASCII ids. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The bound moderator of trusted systems' sanctions stored before it was recorded (the SQLite
 * store's migration 15 does the same), from the key that created each: a key's binding never
 * changes. A sanction of a system (it has an idempotency key) without the field gets it when its
 * key is bound; one stored by an earlier version after its page was done (during a rolling
 * upgrade) keeps none: roll the Deployments after the migration, the documented order.
 */
export const boundModeratorsPage: MigrationPage = async (c, session, after, limit) => {
  const sanctions = await c.sanctions
    .find({ _id: { $gt: after } }, { projection: { moderatorId: 1, idempotencyKey: 1, boundModeratorId: 1 }, session })
    .sort({ _id: 1 })
    .limit(limit)
    .toArray();
  const unbound = sanctions.filter((s) => typeof s.idempotencyKey === 'string' && s.boundModeratorId === undefined);
  if (unbound.length > 0) {
    const keys = await c.apiKeys.find({ _id: { $in: [...new Set(unbound.map((s) => s.moderatorId))] } }, { projection: { moderatorId: 1 }, session }).toArray();
    const bound = new Map(keys.filter((k) => typeof k.moderatorId === 'string').map((k) => [k._id, k.moderatorId!]));
    const ops: AnyBulkWriteOperation<SanctionDoc>[] = unbound
      .filter((s) => bound.has(s.moderatorId))
      .map((s) => ({ updateOne: { filter: { _id: s._id, boundModeratorId: { $exists: false } }, update: { $set: { boundModeratorId: bound.get(s.moderatorId)! } } } }));
    if (ops.length > 0) await c.sanctions.bulkWrite(ops, { session, ordered: true });
  }
  return { count: sanctions.length, last: sanctions.at(-1)?._id ?? null };
};
