import type { ClientSession, Collection, Db, Document } from 'mongodb';
import { MONGO_LIMITS } from './connect.js';
import type {
  AppealDoc,
  AppealEventDoc,
  ApiKeyDoc,
  BanDoc,
  CaseDoc,
  CaseMessageDoc,
  CounterDoc,
  DeliveryDoc,
  EffectDoc,
  EvidenceAuditDoc,
  EvidenceDoc,
  EventDoc,
  MessageDoc,
  MigrationDoc,
  ModeratorDoc,
  ReportDoc,
  ReporterStatsDoc,
  ReportOutcomeDoc,
  SettlementDoc,
  SanctionDoc,
  SanctionEventDoc,
  SlaBreachDoc,
  UserDoc,
} from './documents.js';
import type { ErasedPlayerDoc, HoldDoc, PrivacyAuditDoc, RetentionMarkDoc, RetentionWaitingDoc } from './privacy-documents.js';

/** Collection names in the database. */
export const COLLECTION_NAMES = {
  reports: 'reports',
  cases: 'cases',
  events: 'case_events',
  apiKeys: 'api_keys',
  moderators: 'moderators',
  users: 'users',
  bans: 'bans',
  messages: 'messages',
  caseMessages: 'case_messages',
  deliveries: 'deliveries',
  counters: 'counters',
  slaBreaches: 'sla_breaches',
  sanctions: 'sanctions',
  sanctionEvents: 'sanction_events',
  effects: 'effects',
  reporterStats: 'reporter_stats',
  migrations: 'migrations',
  evidence: 'evidence',
  evidenceAudit: 'evidence_audit',
  reportOutcomes: 'report_outcomes',
  appeals: 'appeals',
  appealEvents: 'appeal_events',
  settlements: 'settlements',
  privacyHolds: 'privacy_holds',
  privacyAudit: 'privacy_audit',
  retentionMarks: 'retention_marks',
  retentionWaiting: 'retention_waiting',
  erasedPlayers: 'privacy_erased_players',
} as const;

/** Typed handles on every collection of the store. */
export interface Collections {
  reports: Collection<ReportDoc>;
  cases: Collection<CaseDoc>;
  events: Collection<EventDoc>;
  apiKeys: Collection<ApiKeyDoc>;
  moderators: Collection<ModeratorDoc>;
  users: Collection<UserDoc>;
  bans: Collection<BanDoc>;
  messages: Collection<MessageDoc>;
  caseMessages: Collection<CaseMessageDoc>;
  deliveries: Collection<DeliveryDoc>;
  counters: Collection<CounterDoc>;
  slaBreaches: Collection<SlaBreachDoc>;
  sanctions: Collection<SanctionDoc>;
  sanctionEvents: Collection<SanctionEventDoc>;
  effects: Collection<EffectDoc>;
  reporterStats: Collection<ReporterStatsDoc>;
  migrations: Collection<MigrationDoc>;
  evidence: Collection<EvidenceDoc>;
  evidenceAudit: Collection<EvidenceAuditDoc>;
  reportOutcomes: Collection<ReportOutcomeDoc>;
  appeals: Collection<AppealDoc>;
  appealEvents: Collection<AppealEventDoc>;
  settlements: Collection<SettlementDoc>;
  privacyHolds: Collection<HoldDoc>;
  privacyAudit: Collection<PrivacyAuditDoc>;
  retentionMarks: Collection<RetentionMarkDoc>;
  retentionWaiting: Collection<RetentionWaitingDoc>;
  erasedPlayers: Collection<ErasedPlayerDoc>;
}

export function collectionsOf(db: Db): Collections {
  const n = COLLECTION_NAMES;
  const all: Collections = {
    reports: db.collection<ReportDoc>(n.reports),
    cases: db.collection<CaseDoc>(n.cases),
    events: db.collection<EventDoc>(n.events),
    apiKeys: db.collection<ApiKeyDoc>(n.apiKeys),
    moderators: db.collection<ModeratorDoc>(n.moderators),
    users: db.collection<UserDoc>(n.users),
    bans: db.collection<BanDoc>(n.bans),
    messages: db.collection<MessageDoc>(n.messages),
    caseMessages: db.collection<CaseMessageDoc>(n.caseMessages),
    deliveries: db.collection<DeliveryDoc>(n.deliveries),
    counters: db.collection<CounterDoc>(n.counters),
    slaBreaches: db.collection<SlaBreachDoc>(n.slaBreaches),
    sanctions: db.collection<SanctionDoc>(n.sanctions),
    sanctionEvents: db.collection<SanctionEventDoc>(n.sanctionEvents),
    effects: db.collection<EffectDoc>(n.effects),
    reporterStats: db.collection<ReporterStatsDoc>(n.reporterStats),
    migrations: db.collection<MigrationDoc>(n.migrations),
    evidence: db.collection<EvidenceDoc>(n.evidence),
    evidenceAudit: db.collection<EvidenceAuditDoc>(n.evidenceAudit),
    reportOutcomes: db.collection<ReportOutcomeDoc>(n.reportOutcomes),
    appeals: db.collection<AppealDoc>(n.appeals),
    appealEvents: db.collection<AppealEventDoc>(n.appealEvents),
    settlements: db.collection<SettlementDoc>(n.settlements),
    privacyHolds: db.collection<HoldDoc>(n.privacyHolds),
    privacyAudit: db.collection<PrivacyAuditDoc>(n.privacyAudit),
    retentionMarks: db.collection<RetentionMarkDoc>(n.retentionMarks),
    retentionWaiting: db.collection<RetentionWaitingDoc>(n.retentionWaiting),
    erasedPlayers: db.collection<ErasedPlayerDoc>(n.erasedPlayers),
  };
  return Object.fromEntries(Object.entries(all).map(([name, collection]) => [name, boundedReads(collection as Collection<Document>)])) as unknown as Collections;
}

/** The read methods, and where each takes its options. */
const READ_OPTIONS_AT: Record<string, number> = { find: 1, findOne: 1, aggregate: 1, countDocuments: 1, distinct: 2 };

/**
 * The collection with every read outside a transaction bounded on the server (maxTimeMS:
 * MONGO_LIMITS.readMS) unless the read sets its own: a query the server cannot answer in time
 * fails, and its job or request with it, instead of holding a connection. In one place, so no
 * read is forgotten (the query-plan suite checks every read command carries it). A transaction's
 * reads are bounded by the transaction's own limits instead (runTransaction).
 */
function boundedReads<T extends Document>(collection: Collection<T>): Collection<T> {
  return new Proxy(collection, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      const at = typeof property === 'string' ? READ_OPTIONS_AT[property] : undefined;
      if (at === undefined || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const options = (args[at] ?? {}) as { maxTimeMS?: number; session?: ClientSession };
        if (options.maxTimeMS === undefined && !options.session?.inTransaction()) {
          const filled = Array.from({ length: at + 1 }, (_, i) => args[i] ?? {});
          filled[at] = { ...options, maxTimeMS: MONGO_LIMITS.readMS };
          return (value as (...a: unknown[]) => unknown).apply(target, [...filled, ...args.slice(at + 1)]);
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
