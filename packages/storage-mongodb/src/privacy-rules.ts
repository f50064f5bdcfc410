import type { ClientSession } from 'mongodb';
import { ERASED_TEXT, type AppealRecord, type HoldTarget, type SanctionRecord } from '@rm/storage';
import { appealNotErased, eraseSanctionEvidence, eraseStatement } from '@rm/storage/adapter';
import type { Collections } from './collections.js';

/**
 * What erasure and the retention sweep both do to the MongoDB store's documents (privacy.ts,
 * retention.ts), written once: the holds in force, a report's kept evidence deleted, a sanction's
 * and an appeal's free text erased. `write: false` reads the same and writes nothing (an
 * erasure's dry run).
 */

/** A hold active at `at`: not released, its end not reached. */
export const activeAt = (at: number) => ({ releasedAt: null, $or: [{ until: null }, { until: { $gt: at } }] });

/** The cases of the sanctions under an active hold, with the hold's id (holds are few: all of them are read). */
export async function caseIdsOfSanctionHolds(c: Collections, session: ClientSession | undefined, at: number): Promise<Map<string, string>> {
  const holds = await c.privacyHolds.find({ targetType: 'sanction', ...activeAt(at) }, { session, projection: { targetId: 1 } }).toArray();
  const byCase = new Map<string, string>();
  if (holds.length === 0) return byCase;
  const sanctions = await c.sanctions.find({ _id: { $in: holds.map((h) => h.targetId) } }, { session, projection: { caseId: 1 } }).toArray();
  for (const s of sanctions) {
    if (typeof s.caseId === 'string') byCase.set(s.caseId, holds.find((h) => h.targetId === s._id)!._id);
  }
  return byCase;
}

/**
 * The ids of these decided cases (with their players) a legal hold active at `at` keeps: on the
 * case, the player, or a sanction of the case. For the evidence sweep (evidence.ts); each read
 * through privacy_holds_by_target or _id.
 */
export async function heldCases(c: Collections, session: ClientSession, cases: { _id: string; userId: string }[], at: number): Promise<Set<string>> {
  if (cases.length === 0) return new Set();
  const byCase = await c.privacyHolds.find({ targetType: 'case', targetId: { $in: cases.map((x) => x._id) }, ...activeAt(at) }, { session, projection: { targetId: 1 } }).toArray();
  const byPlayer = await c.privacyHolds.find({ targetType: 'player', targetId: { $in: [...new Set(cases.map((x) => x.userId))] }, ...activeAt(at) }, { session, projection: { targetId: 1 } }).toArray();
  const sanctionCases = await caseIdsOfSanctionHolds(c, session, at);
  const players = new Set(byPlayer.map((h) => h.targetId));
  const held = new Set([...byCase.map((h) => h.targetId), ...sanctionCases.keys()]);
  return new Set(cases.filter((x) => held.has(x._id) || players.has(x.userId)).map((x) => x._id));
}

/** The holds in force at one time, for one erasure or retention step: each answers the keeping hold's id, or null. */
export interface HoldsAt {
  on(target: HoldTarget): Promise<string | null>;
  /** On the player, the case, or a sanction of the case. */
  ofCase(caseId: string | null, userId: string): Promise<string | null>;
}

export async function holdsAt(c: Collections, session: ClientSession, at: number): Promise<HoldsAt> {
  const sanctionHolds = await caseIdsOfSanctionHolds(c, session, at);
  const cache = new Map<string, string | null>();
  const on = async (t: HoldTarget): Promise<string | null> => {
    const key = `${t.type}\u0000${t.id}`;
    if (!cache.has(key)) {
      // privacy_holds_by_target.
      const [doc] = await c.privacyHolds.find({ targetType: t.type, targetId: t.id, ...activeAt(at) }, { session }).sort({ placedAt: 1, _id: 1 }).limit(1).toArray();
      cache.set(key, doc?._id ?? null);
    }
    return cache.get(key)!;
  };
  return {
    on,
    ofCase: async (caseId, userId) => (await on({ type: 'player', id: userId })) ?? (caseId === null ? null : ((await on({ type: 'case', id: caseId })) ?? sanctionHolds.get(caseId) ?? null)),
  };
}

/**
 * The report's captured evidence marked deleted, each with an audit entry saying why (`note`),
 * and the failure details of its items and audit entries cleared (they may name a host). Answers
 * how many items went, their hashes and ids (whether a hash is still held: unheldOf).
 */
export async function deleteReportEvidence(c: Collections, session: ClientSession, reportId: string, at: number, note: string, write: boolean): Promise<{ items: number; hashes: string[]; ids: string[] }> {
  const out = { items: 0, hashes: [] as string[], ids: [] as string[] };
  // evidence_by_report: every item of the report; captured ones are marked deleted.
  for (const item of await c.evidence.find({ reportId }, { session }).sort({ reportId: 1, index: 1 }).toArray()) {
    if (item.state === 'captured') {
      out.items += 1;
      out.ids.push(item._id);
      if (item.sha256 !== null) out.hashes.push(item.sha256);
      if (write) {
        await c.evidence.updateOne({ _id: item._id }, { $set: { state: 'deleted', detail: null, at } }, { session });
        await c.evidenceAudit.insertOne({ reportId, index: item.index, action: 'evidence.deleted', sha256: item.sha256, detail: note, at }, { session });
      }
    } else if (item.detail !== null && write) {
      await c.evidence.updateOne({ _id: item._id }, { $set: { detail: null } }, { session });
    }
  }
  if (write) await scrubEvidenceAuditDetails(c, session, [reportId]);
  return out;
}

/** The failure details of these reports' evidence items and of their audit entries cleared (deletion notes stay). */
export async function scrubEvidenceDetails(c: Collections, session: ClientSession, reportIds: string[]): Promise<void> {
  if (reportIds.length === 0) return;
  await c.evidence.updateMany({ reportId: { $in: reportIds }, detail: { $ne: null } }, { $set: { detail: null } }, { session });
  await scrubEvidenceAuditDetails(c, session, reportIds);
}

const scrubEvidenceAuditDetails = (c: Collections, session: ClientSession, reportIds: string[]) =>
  c.evidenceAudit.updateMany({ reportId: { $in: reportIds }, action: { $ne: 'evidence.deleted' }, detail: { $ne: null } }, { $set: { detail: null } }, { session });

/** Of these hashes, those no captured item other than `deletedIds` holds: their bytes may go. */
export async function unheldOf(c: Collections, session: ClientSession, hashes: Iterable<string>, deletedIds: string[]): Promise<string[]> {
  const unheld: string[] = [];
  for (const sha256 of new Set(hashes)) {
    const holder = await c.evidence.findOne({ sha256, state: 'captured', _id: { $nin: deletedIds } }, { session, projection: { _id: 1 } });
    if (holder === null) unheld.push(sha256);
  }
  return unheld;
}

/** A sanction's reason, lift reason, evidence links and statement's reason erased, and its feed's appeal reasons; true when anything changed. */
export async function eraseSanction(c: Collections, session: ClientSession, sanction: SanctionRecord, write: boolean): Promise<boolean> {
  const erased = { reason: null, liftReason: null, evidence: eraseSanctionEvidence(sanction.evidence), statement: eraseStatement(sanction.statement) };
  if (JSON.stringify(erased) === JSON.stringify({ reason: sanction.reason, liftReason: sanction.liftReason, evidence: sanction.evidence, statement: sanction.statement })) return false;
  if (write) {
    await c.sanctions.updateOne({ _id: sanction.id }, { $set: erased }, { session });
    await c.sanctionEvents.updateMany({ sanctionId: sanction.id, appeal: { $type: 'object' } }, { $set: { 'appeal.reason': ERASED_TEXT } }, { session });
  }
  return true;
}

/** An appeal's statement and its reviewer's reason erased, in its audit and its sanction's feed too; true when anything changed. */
export async function eraseAppeal(c: Collections, session: ClientSession, appeal: Pick<AppealRecord, 'id' | 'sanctionId' | 'statement' | 'decisionReason'>, write: boolean): Promise<boolean> {
  if (!appealNotErased(appeal)) return false;
  if (write) {
    await c.appeals.updateOne({ _id: appeal.id }, { $set: { statement: ERASED_TEXT, decisionReason: appeal.decisionReason === null ? null : ERASED_TEXT } }, { session });
    await c.appealEvents.updateMany({ appealId: appeal.id }, { $set: { reason: null } }, { session });
    await c.sanctionEvents.updateMany({ sanctionId: appeal.sanctionId, appeal: { $type: 'object' } }, { $set: { 'appeal.reason': ERASED_TEXT } }, { session });
  }
  return true;
}
