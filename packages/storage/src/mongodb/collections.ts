import type { Collection, Db } from 'mongodb';
import type {
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
  SanctionDoc,
  SanctionEventDoc,
  SlaBreachDoc,
  UserDoc,
} from './documents.js';

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
}

export function collectionsOf(db: Db): Collections {
  const n = COLLECTION_NAMES;
  return {
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
  };
}
