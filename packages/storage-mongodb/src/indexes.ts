import type { Db } from 'mongodb';
import { COLLECTION_NAMES, type Collections } from './collections.js';
import { isIndexNotFound, isNamespaceExists } from './driver-errors.js';
import { FEED_COUNTER } from './sanctions.js';
import { OUTCOME_COUNTER } from './reporter-outcomes.js';
import { ensurePrivacyIndexes } from './privacy.js';
import { ensureRetentionIndexes } from './retention.js';

/**
 * Creates the collections and indexes at start. Idempotent, and safe when several processes start
 * at once: creating an index that exists with the same name and keys changes nothing.
 */
export async function ensureSchema(db: Db, c: Collections): Promise<void> {
  await ensureCollections(db);
  await c.reports.createIndexes([
    // The list: a user's reports, newest first (_id breaks ties like the SQLite store's id).
    { key: { userId: 1, receivedAt: -1, _id: -1 }, name: 'reports_by_user_time' },
    // A case's reports oldest first, and its reporters.
    { key: { caseId: 1, receivedAt: 1, _id: 1 }, name: 'reports_by_case' },
    // A decision's settlement a page at a time, each reporter's reports together (settlements.ts).
    { key: { caseId: 1, reporterPlatform: 1, reporterId: 1, _id: 1 }, name: 'reports_by_case_reporter' },
  ]);
  // A case's settlements still under way: a decision on the case waits for them (settlements.ts).
  await c.settlements.createIndexes([{ key: { caseId: 1 }, name: 'settlements_by_case' }]);
  await c.cases.createIndexes([
    // At most one open case per user. `open: true` exists only on open and claimed cases: an
    // equality filter works on every server version, where `$in` needs MongoDB 6.0.
    { key: { userId: 1 }, name: 'cases_open_by_user', unique: true, partialFilterExpression: { open: true } },
  ]);
  await c.events.createIndexes([
    { key: { decisionId: 1 }, name: 'case_events_by_decision', unique: true },
    { key: { caseId: 1, seq: 1 }, name: 'case_events_by_case' },
  ]);
  await c.reporterStats.createIndexes([{ key: { platform: 1, reporterId: 1 }, name: 'reporter_stats_by_reporter', unique: true }]);
  await c.messages.createIndexes([
    { key: { dedupeKey: 1 }, name: 'messages_by_dedupe_key', unique: true },
    { key: { createdAt: -1, seq: -1 }, name: 'messages_newest_first' },
    // A reporter's erasure finds the recorder's DMs to them (channel dm:<reporterId>).
    { key: { channel: 1 }, name: 'messages_by_channel' },
  ]);
  // Queue health (GET /v1/stats): decisions, reports and SLA breaches found by time, open cases by age.
  await c.events.createIndexes([{ key: { at: 1 }, name: 'case_events_by_time' }]);
  await c.reports.createIndexes([{ key: { receivedAt: 1 }, name: 'reports_by_time' }]);
  await c.slaBreaches.createIndexes([{ key: { at: 1 }, name: 'sla_breaches_by_time' }]);
  // The queue a page at a time by case id (openCases): open cases only.
  await c.cases.createIndexes([{ key: { open: 1, _id: 1 }, name: 'cases_open_by_id', partialFilterExpression: { open: true } }]);
  // GET /v1/cases (listCases): triaged cases by state and age; the count and the page both use it.
  await c.cases.createIndexes([
    { key: { state: 1, createdAt: 1, _id: 1 }, name: 'cases_triaged', partialFilterExpression: { triage: { $exists: true } } },
  ]);
  await c.sanctions.createIndexes([
    { key: { userId: 1, createdAt: -1, _id: -1 }, name: 'sanctions_by_user' },
    // A player's sanctions in some states (the ladder's offences, an undo's lift) and their tally.
    { key: { userId: 1, state: 1, category: 1, blocksLogin: 1 }, name: 'sanctions_by_user_state' },
    // A case has at most one active sanction: the one its approval set. A trusted system's
    // sanctions have no case, so only string caseIds are indexed (the first version of this index,
    // on every active sanction, is replaced below). A query repeats its filter (partial-filters.ts).
    { key: { caseId: 1 }, name: 'sanctions_active_by_case_v2', unique: true, partialFilterExpression: { state: 'active', caseId: { $type: 'string' } } },
    // Due sanctions and due waves soonest first, _id breaking ties: the index gives the page's
    // order, so no sort holds every due sanction (the first versions, without _id, are replaced below).
    { key: { expiresAt: 1, _id: 1 }, name: 'sanctions_due_v2', partialFilterExpression: { state: 'active' } },
    // The banned players a page at a time, by id (bannedUserIds), and isBanned.
    { key: { userId: 1 }, name: 'sanctions_active_by_user', partialFilterExpression: { state: 'active' } },
    // A trusted system's key names one sanction of that system (its API key, moderatorId); present
    // only on theirs. The first version, unique across systems, is replaced below. A query must
    // repeat the partial filter to use it (idempotencyKeyFilter).
    { key: { moderatorId: 1, idempotencyKey: 1 }, name: 'sanctions_by_idempotency_key_v2', unique: true, partialFilterExpression: { idempotencyKey: { $type: 'string' } } },
    { key: { effectiveAt: 1, _id: 1 }, name: 'sanctions_scheduled_v2', partialFilterExpression: { state: 'scheduled' } },
    // Transparency: sanctions by creation and by a wave's start (the figures), statements by
    // their restriction's start (the export's pages).
    { key: { createdAt: 1 }, name: 'sanctions_by_created' },
    { key: { effectiveAt: 1 }, name: 'sanctions_by_effective', partialFilterExpression: { effectiveAt: { $type: 'number' } } },
    { key: { 'statement.restriction.from': 1, _id: 1 }, name: 'sanctions_by_start', partialFilterExpression: { statement: { $type: 'object' } } },
  ]);
  for (const replaced of ['sanctions_active_by_case', 'sanctions_by_idempotency_key', 'sanctions_due', 'sanctions_scheduled']) {
    await c.sanctions.dropIndex(replaced).catch((err: unknown) => {
      if (!isIndexNotFound(err)) throw err;
    });
  }
  await c.sanctionEvents.createIndexes([{ key: { sanctionId: 1, _id: 1 }, name: 'sanction_events_by_sanction' }]);
  await c.effects.createIndexes([
    { key: { doneAt: 1, createdAt: 1, _id: 1 }, name: 'effects_pending' },
    { key: { sourceId: 1, createdAt: 1, _id: 1 }, name: 'effects_by_source' },
  ]);
  await c.evidence.createIndexes([
    { key: { reportId: 1, index: 1 }, name: 'evidence_by_report' },
    // Is a kept copy still held by a captured item (deleteEvidence)?
    { key: { sha256: 1 }, name: 'evidence_captured_by_sha256', partialFilterExpression: { state: 'captured' } },
    { key: { caseId: 1 }, name: 'evidence_captured_by_case', partialFilterExpression: { state: 'captured' } },
    // The retention sweep's pages: captured items by _id, from a cursor (expiredEvidence).
    { key: { state: 1, _id: 1 }, name: 'evidence_captured_by_id', partialFilterExpression: { state: 'captured' } },
  ]);
  await c.evidenceAudit.createIndexes([{ key: { reportId: 1, at: 1, _id: 1 }, name: 'evidence_audit_by_report' }]);
  // A reporter's outcomes in seq order (reporterOutcomes); seq is unique store-wide, so per reporter too.
  await c.reportOutcomes.createIndexes([{ key: { platform: 1, reporterId: 1, seq: 1 }, name: 'report_outcomes_by_reporter', unique: true }]);
  await c.appeals.createIndexes([
    // One appeal per sanction: a repeat answers the first, also when two submissions race.
    { key: { sanctionId: 1 }, name: 'appeals_by_sanction', unique: true },
    // The queue oldest first by state (GET /v1/appeals), a player's and a case's appeals.
    { key: { state: 1, createdAt: 1, _id: 1 }, name: 'appeals_queue' },
    { key: { userId: 1, createdAt: 1, _id: 1 }, name: 'appeals_by_user' },
    // Partial: a query repeats its filter (partial-filters.ts), as every query on a `$type` index below.
    { key: { caseId: 1, createdAt: 1, _id: 1 }, name: 'appeals_by_case', partialFilterExpression: { caseId: { $type: 'string' } } },
    // The stats: appeals submitted or decided since a time.
    { key: { createdAt: 1 }, name: 'appeals_by_time' },
    { key: { decidedAt: 1 }, name: 'appeals_decided', partialFilterExpression: { decidedAt: { $type: 'number' } } },
  ]);
  await c.appealEvents.createIndexes([
    { key: { decisionId: 1 }, name: 'appeal_events_by_decision', unique: true },
    { key: { appealId: 1, seq: 1 }, name: 'appeal_events_by_appeal' },
  ]);
  // The counters exist before any transaction updates them (no upsert race inside one).
  await c.counters.updateOne({ _id: FEED_COUNTER }, { $setOnInsert: { value: 0 } }, { upsert: true });
  await c.counters.updateOne({ _id: OUTCOME_COUNTER }, { $setOnInsert: { value: 0 } }, { upsert: true });
  await ensurePrivacyIndexes(c);
  await ensureRetentionIndexes(c);
}

/**
 * A transaction cannot create a collection on every deployment (not across shards, not before
 * MongoDB 4.4), and `bans` has no index that would create it: create them all up front.
 */
async function ensureCollections(db: Db): Promise<void> {
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((info) => info.name));
  for (const name of Object.values(COLLECTION_NAMES)) {
    if (existing.has(name)) continue;
    try {
      await db.createCollection(name);
    } catch (err) {
      if (!isNamespaceExists(err)) throw err;
    }
  }
}
