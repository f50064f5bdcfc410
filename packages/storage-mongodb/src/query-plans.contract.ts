import type { Document, MongoClient } from 'mongodb';
import { describe, expect, it } from 'vitest';
import type { AppealRecord, AppealState } from '@rm/storage';
import { allExpiredEvidence, caseMover, report } from '@rm/storage/contract';
import { RETENTION_SWEEP_KINDS, SLA_BREACHED_FLAG, type CaseSort, type NewSanction, type SanctionFilter } from '@rm/storage';
import { statementFixture } from '@rm/storage/contract';
import type { Store } from '@rm/storage';
import { COLLECTION_NAMES } from './collections.js';
import { SETTLEMENT_PAGE } from './settlements.js';
import type { MongoSuiteContext } from './mongodb-only.contract.js';

/**
 * An index behind every query (run from mongodb.test.ts, last). The store is opened with a command
 * listener: every filter and pipeline it sends is reduced to its shape (values replaced, operators
 * and field names kept). HOT_PATHS below names the store calls of each hot path; run on a seeded
 * database, each shape they send is explained there and fails on a collection scan, an in-memory
 * sort without a page limit, or a $lookup that scans. Then every shape the whole contract run
 * sent must be one of those: a new query the contract run makes, and no entry makes, fails here
 * with its shape. A filter on `_id` by equality or `$in` always uses the _id index, and is not listed.
 */

/** The longest page any caller asks for (openCases, bannedUserIds): an in-memory sort must be bounded by it. */
const PAGE = 1_000;

/** One shape of query, and the command that explains it (a write's filter is explained as a find). */
interface Query {
  key: string;
  collection: string;
  explain: Document;
}

/** The shapes sent by stores opened with `record`, and those sent while an entry runs. */
export class QueryLog {
  readonly seen = new Map<string, Document>();
  /** Reads sent outside a transaction without maxTimeMS: there must be none (collections.ts bounds them all). */
  readonly unbounded = new Set<string>();
  private bucket: Map<string, Query> | null = null;

  readonly record = (command: Document): void => {
    const read = ['find', 'aggregate', 'count', 'distinct'].find((name) => typeof command[name] === 'string');
    if (read && command['txnNumber'] === undefined && command['maxTimeMS'] === undefined) this.unbounded.add(`${read} ${String(command[read])}`);
    for (const q of queriesOf(command)) {
      if (!this.seen.has(q.key)) this.seen.set(q.key, q.explain);
      if (this.bucket && !this.bucket.has(q.key)) this.bucket.set(q.key, q);
    }
  };

  async during(run: () => Promise<unknown>): Promise<Query[]> {
    const bucket = new Map<string, Query>();
    this.bucket = bucket;
    try {
      await run();
    } finally {
      this.bucket = null;
    }
    return [...bucket.values()];
  }
}

const isDocument = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && [Object.prototype, null].includes(Object.getPrototypeOf(v));

/**
 * A filter or pipeline with its values replaced by '?': field names, operators, `$type` aliases,
 * null and booleans (they choose partial indexes) are kept. Keys are sorted; an array of documents
 * keeps each distinct shape once ($or over any number of reporters is one shape), an array of
 * values is one value.
 */
export function shape(v: unknown): unknown {
  if (v === null || typeof v === 'boolean') return v;
  if (v instanceof Map) return shape(Object.fromEntries(v));
  if (Array.isArray(v)) {
    if (!v.some(isDocument)) return '?';
    return [...new Map(v.map((x) => [JSON.stringify(shape(x)), shape(x)])).values()];
  }
  if (!isDocument(v)) return '?';
  return Object.fromEntries(
    Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .sort()
      .map((k) => [k, k === '$type' ? v[k] : shape(v[k])]),
  );
}

/** By `_id` equality or `$in`: the _id index, whatever else the filter holds. */
const byId = (filter: unknown): boolean => {
  if (!isDocument(filter) || !('_id' in filter)) return false;
  const id = filter['_id'];
  return !isDocument(id) || Object.keys(id).every((op) => op === '$eq' || op === '$in');
};

const sortOf = (sort: unknown): [string, unknown][] | undefined =>
  sort instanceof Map ? [...sort.entries()] : isDocument(sort) && Object.keys(sort).length > 0 ? Object.entries(sort) : undefined;

function filtered(collection: string, filter: unknown, sort: unknown, extra: Document): Query[] {
  if (byId(filter)) return [];
  const order = sortOf(sort);
  const key = `${collection} ${JSON.stringify(shape(filter ?? {}))}${order ? ` sort ${JSON.stringify(order)}` : ''}`;
  return [{ key, collection, explain: { find: collection, filter: filter ?? {}, ...(order && { sort: Object.fromEntries(order) }), ...extra } }];
}

/** The queries of one command (none for inserts, commits, getMores and the rest). */
function queriesOf(cmd: Document): Query[] {
  const pick = (...names: string[]) => Object.fromEntries(names.filter((n) => cmd[n] !== undefined).map((n) => [n, cmd[n]]));
  if (typeof cmd['find'] === 'string') return filtered(cmd['find'], cmd['filter'], cmd['sort'], pick('projection', 'limit', 'skip', 'hint'));
  if (typeof cmd['findAndModify'] === 'string') return filtered(cmd['findAndModify'], cmd['query'], cmd['sort'], { limit: 1 });
  if (typeof cmd['update'] === 'string') {
    return (cmd['updates'] as Document[]).flatMap((u) => filtered(cmd['update'], u['q'], undefined, u['multi'] ? {} : { limit: 1 }));
  }
  if (typeof cmd['delete'] === 'string') {
    return (cmd['deletes'] as Document[]).flatMap((d) => filtered(cmd['delete'], d['q'], undefined, d['limit'] === 1 ? { limit: 1 } : {}));
  }
  if (typeof cmd['count'] === 'string') return filtered(cmd['count'], cmd['query'], undefined, {});
  if (typeof cmd['distinct'] === 'string') return filtered(cmd['distinct'], cmd['query'], undefined, {});
  if (typeof cmd['aggregate'] === 'string') {
    const collection = cmd['aggregate'];
    return [{ key: `${collection} aggregate ${JSON.stringify(shape(cmd['pipeline']))}`, collection, explain: { aggregate: collection, pipeline: cmd['pipeline'], cursor: {} } }];
  }
  return [];
}

/** Parts of an explain that are not the chosen plan. */
const NOT_THE_PLAN = new Set(['rejectedPlans', 'executionStats', 'allPlansExecution', 'slotBasedPlan', 'command', 'serverInfo', 'serverParameters']);

function* nodesOf(v: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(v)) {
    for (const x of v) yield* nodesOf(x);
    return;
  }
  if (v === null || typeof v !== 'object') return;
  const node = v as Record<string, unknown>;
  yield node;
  for (const [k, x] of Object.entries(node)) if (!NOT_THE_PLAN.has(k)) yield* nodesOf(x);
}

/** What is wrong with a plan: collection scans, sorts in memory beyond a page, $lookups that scan. */
export function planFaults(plan: unknown): { scans: string[]; sorts: string[] } {
  const scans: string[] = [];
  const sorts: string[] = [];
  const bounded = (limit: unknown) => limit !== undefined && limit !== null && Number(limit) > 0 && Number(limit) <= PAGE;
  for (const n of nodesOf(plan)) {
    if (n['stage'] === 'COLLSCAN') scans.push('COLLSCAN');
    if (n['stage'] === 'EQ_LOOKUP' && !String(n['strategy']).includes('IndexedLoopJoin')) scans.push(`$lookup by ${String(n['strategy'])}`);
    if ('$lookup' in n && Number(n['collectionScans'] ?? 0) > 0) scans.push('$lookup with a collection scan');
    if (n['stage'] === 'SORT' && !bounded(n['limitAmount'])) sorts.push('SORT in memory without a page limit');
    const sort = n['$sort'];
    if (isDocument(sort) && 'sortKey' in sort && !bounded(sort['limit'])) sorts.push('$sort in memory without a page limit');
  }
  return { scans, sorts };
}

/** Collections where a scan or a sort is accepted, each with why. */
type Allowance = Partial<Record<string, string>>;

/**
 * Everywhere: the `bans` of an earlier version, empty once migrated, looked at every
 * OLD_BANS_CHECK_MS (migrate on read). Start-up needs nothing more: the migrations a `run` start
 * applies page by `_id`, and read each page's reports, events and outcomes through indexes.
 */
const ALWAYS: Allowance = { [COLLECTION_NAMES.bans]: 'the bans of an earlier version: empty once migrated' };

interface Seeded {
  s: Store;
  /** Opens another store on the same database (a restart), watched as the first. */
  reopen(): Promise<Store>;
  db(): ReturnType<MongoClient['db']>;
  /** What earlier entries made, for later ones. */
  made: Record<string, string>;
}

interface Entry {
  path: string;
  name: string;
  scans?: Allowance;
  sorts?: Allowance;
  run(x: Seeded): Promise<unknown>;
}

const USERS = Array.from({ length: 12 }, (_, i) => `qp-u${i}`);
const move = caseMover('qp');
const caseOf = async (s: Store, userId: string) => (await s.openCaseOfUser(userId))!;
const apiSanction = (id: string, userId: string, key: string): NewSanction => ({
  id,
  userId,
  kind: 'ban',
  blocksLogin: true,
  category: 'cheating',
  source: { type: 'anticheat', id: 'detector' },
  idempotencyKey: key,
  evidence: [],
  reason: 'cheat',
  moderatorId: 'qp-key-bound',
  expiresAt: 9_000,
  statement: statementFixture({ from: 8_000 }),
  effects: [{ id: `${id}:kick`, kind: 'sanction.kick', payload: { userId } }],
});
/** Every combination of the optional fields (2^n queries). */
const combinations = <T extends object>(options: T): Partial<T>[] =>
  Object.entries(options).reduce<Partial<T>[]>((all, [k, v]) => all.flatMap((o) => [o, { ...o, [k]: v }]), [{}]);

/** The store calls of each hot path, in order: each runs on what the ones before it stored. */
const HOT_PATHS: Entry[] = [
  {
    path: 'intake',
    name: 'saveReports: new cases, joining cases, repeats',
    async run({ s }) {
      const batch = USERS.flatMap((u, i) => [0, 1, 2].map((k) => report(`qp-r${i}-${k}`, u, 1_000 + 10 * i + k, { reporterId: `qp-rep${k}` })));
      await s.saveReports(batch);
      await s.saveReports([batch[0]!, report('qp-r0-9', USERS[0]!, 1_500)]);
    },
  },
  {
    path: 'intake',
    name: 'reads of a case and its reports',
    sorts: { [COLLECTION_NAMES.reports]: "one case's reporters, grouped then sorted: a handful" },
    async run({ s }) {
      const c = await caseOf(s, USERS[0]!);
      await Promise.all([s.getCase(c.id), s.getReport('qp-r0-0'), s.caseReportIds(c.id), s.caseReports(c.id), s.caseReporters(c.id)]);
      await s.listReportsByUser(USERS[0]!, { offset: 0, limit: 25 });
    },
  },
  {
    path: 'triage',
    name: 'triage of a case, of many cases; reporter credibility',
    async run({ s }) {
      for (const [i, u] of USERS.entries()) {
        const c = await caseOf(s, u);
        await s.setCaseTriage({ caseId: c.id, priority: 10 * i, reportCount: 3, distinctReporters: 3, categories: [i % 2 ? 'cheating' : 'spam'], flags: i % 3 ? [] : ['suspected_brigade'], firedRules: [], lastReportAt: 1_000, updatedAt: 2_000 });
      }
      const c = await caseOf(s, USERS[1]!);
      await s.getCaseTriage(c.id);
      await s.caseTriages((await s.openCases('', PAGE)).map((o) => o.caseId));
      await s.reporterStats([{ platform: 'gameplatform', id: 'qp-rep0' }, { platform: 'gameplatform', id: 'qp-rep1' }]);
    },
  },
  {
    path: 'cases list',
    name: 'listCases: each sort, with and without a category or a flag',
    async run({ s }) {
      const sorts: CaseSort[] = ['priority', 'oldest', 'newest'];
      for (const sort of sorts) {
        for (const category of [{}, { category: 'cheating' }]) {
          for (const flag of [{}, { flag: SLA_BREACHED_FLAG }, { flag: 'suspected_brigade' }]) {
            await s.listCases({ states: ['open', 'claimed'], sort, agePerHour: 1, now: 10_000, page: { offset: 0, limit: 25 }, ...category, ...flag });
          }
        }
      }
    },
  },
  {
    path: 'decisions',
    name: 'claim, approve with a ban and effects, dismiss, undo (the lift), the history',
    async run({ s, made }) {
      const a = (await s.transitionCase(move(await caseOf(s, USERS[2]!), 'claimed')))!;
      const effects = [{ id: 'qp-eff-1', kind: 'sanction.kick', payload: null }];
      const approved = (await s.transitionCase(move(a, 'approved', { ban: 'set', effects, sanction: { reason: 'cheat', expiresAt: 6_000, category: 'cheating' } })))!;
      await s.transitionCase(move(await caseOf(s, USERS[3]!), 'dismissed'));
      const undo = move(approved, 'open', { ban: 'lift', caseMessage: { caseId: approved.id, channel: 'c', messageId: 'm', updatedAt: 7_000 } });
      const undone = (await s.transitionCase(undo))!;
      await s.settleDecision(undo.event.decisionId);
      // Permanent: it holds the case's evidence and is appealed below.
      const again = (await s.transitionCase(move(undone, 'approved', { ban: 'set', sanction: { reason: 'cheat', expiresAt: null, category: 'cheating' } })))!;
      made['approvedCase'] = again.id;
      await s.transitionCase(move(await caseOf(s, USERS[4]!), 'approved', { ban: 'set' }));
      await Promise.all([s.findDecision('qp-1'), s.caseHistory(again.id), s.lastCaseEvent(again.id)]);
    },
  },
  {
    path: 'decisions',
    name: 'effects: pending of a source, pending, done, pruned',
    sorts: { [COLLECTION_NAMES.effects]: "one source's effects: a handful, sorted in memory" },
    async run({ s }) {
      await s.pendingEffectsOf('qp-1');
      const pending = await s.pendingEffects(Number.MAX_SAFE_INTEGER, 100);
      await s.completeEffects(pending.map((e) => e.id), 8_000);
      await s.pruneEffects(9_000, 100);
    },
  },
  {
    path: 'ban API and check rebuild',
    name: 'isBanned, bannedUserIds and openCases a page at a time',
    async run({ s }) {
      await Promise.all(USERS.slice(0, 5).map((u) => s.isBanned(u)));
      const first = await s.bannedUserIds('', 1);
      await s.bannedUserIds(first.at(-1) ?? '', 1);
      const open = await s.openCases('', 2);
      await s.openCases(open.at(-1)!.caseId, 2);
    },
  },
  {
    path: 'feed',
    name: 'sanctionFeed, sanctionEventsOf',
    async run({ s }) {
      const page = await s.sanctionFeed(0, 100);
      await s.sanctionFeed(page.at(-1)?.seq ?? 0, 100);
      if (page[0]) await s.sanctionEventsOf(page[0].sanctionId);
    },
  },
  {
    path: 'sanctions API',
    name: 'keys, batches now and scheduled, reads, lifts, expiry, activation',
    sorts: { [COLLECTION_NAMES.sanctions]: "one player's sanctions (a handful) by state: sorted in memory when the planner picks sanctions_by_user_state" },
    async run({ s, made }) {
      await s.createApiKey({ key: 'qp-key-bound', name: 'anticheat', secretHash: 'h', permissions: ['sanctions.write'], elevated: false, admin: false, rateLimit: null, createdAt: 1, revokedAt: null, moderatorId: 'mod-1' });
      await s.createSanctions({ items: [apiSanction('qp-s1', USERS[5]!, 'k1'), apiSanction('qp-s2', USERS[6]!, 'k2')], at: 8_000, effectiveAt: null, sourceId: 'qp-batch-1' });
      await s.createSanctions({ items: [apiSanction('qp-s1-again', USERS[5]!, 'k1')], at: 8_100, effectiveAt: null, sourceId: 'qp-batch-2' });
      await s.createSanctions({ items: [apiSanction('qp-s3', USERS[7]!, 'k3'), apiSanction('qp-s4', USERS[8]!, 'k4')], at: 8_200, effectiveAt: 8_500, sourceId: 'qp-wave' });
      const due = await s.dueScheduledSanctions(9_000, 100);
      await s.activateSanctions({ items: due.slice(0, 1).map((d) => ({ sanctionId: d.id, effects: [] })), at: 8_600, sourceId: 'qp-activate' });
      await s.liftSanction({ sanctionId: 'qp-s4', at: 8_700, moderatorId: 'mod-1', sourceId: 'qp-lift-scheduled', effects: [] });
      await s.liftSanction({ sanctionId: 'qp-s2', at: 8_700, moderatorId: 'mod-1', sourceId: 'qp-lift', effects: [] });
      for (const d of await s.dueSanctions(Number.MAX_SAFE_INTEGER, 100)) {
        await s.expireSanction({ sanctionId: d.id, at: Number.MAX_SAFE_INTEGER, sourceId: `qp-expire-${d.id}`, effects: [] });
      }
      await s.getSanction('qp-s1');
      await s.sanctionsOfUser(USERS[5]!);
      const filters: (SanctionFilter | undefined)[] = [undefined, ...combinations({ category: 'cheating', caseId: made['approvedCase']! }).map((f) => ({ states: ['active', 'expired'] as const, ...f }))];
      for (const f of filters) await s.sanctionSummariesOfUser(USERS[2]!, f);
      await s.sanctionTallyOfUser(USERS[2]!);
    },
  },
  {
    path: 'appeals',
    name: 'submit, read, list by every filter, claim, uphold, overturn, breach',
    async run({ s }) {
      const active = async (userId: string) => (await s.sanctionsOfUser(userId)).find((x) => x.state === 'active');
      const [sanction, other] = [await active(USERS[2]!), await active(USERS[4]!)];
      const appeal = (id: string, x: { id: string; caseId: string | null; category: string | null }, userId: string) =>
        s.createAppeal({ id, sanctionId: x.id, userId, caseId: x.caseId, category: x.category, sanctionModeratorId: 'mod-1', automated: false, statement: 'not me', at: 9_000, effects: [] });
      const first = (await appeal('qp-ap1', sanction!, USERS[2]!)).appeal;
      await appeal('qp-ap1-again', sanction!, USERS[2]!);
      const second = (await appeal('qp-ap2', other!, USERS[4]!)).appeal;
      await s.getAppeal(first.id);
      const states: AppealState[] = ['open', 'claimed'];
      for (const q of combinations({ category: 'cheating', userId: USERS[2]!, caseId: sanction!.caseId!, sanctionId: sanction!.id, after: { createdAt: 0, id: '' } })) {
        await s.listAppeals({ states, limit: 25, ...q });
      }
      const step = async (a: AppealRecord, state: AppealState, decisionId: string) =>
        (await s.transitionAppeal({
          appealId: a.id,
          expectedVersion: a.version,
          expectedState: a.state,
          next: { state, claimedBy: state === 'claimed' ? 'mod-2' : null },
          ...(state === 'upheld' || state === 'overturned' ? { resolution: { outcome: state, reason: 'because' } } : {}),
          event: { decisionId, action: state === 'claimed' ? 'claim' : state === 'upheld' ? 'uphold' : 'overturn', moderatorId: 'mod-2', reason: null, at: 9_500, result: null },
        }))!;
      await step(await step(second, 'claimed', 'qp-ap2-claim'), 'overturned', 'qp-ap2-overturn');
      await s.recordAppealSlaBreach(first.id);
      await Promise.all([s.findAppealDecision('qp-ap2-claim'), s.appealHistory(second.id)]);
      await step(await step(first, 'claimed', 'qp-ap1-claim'), 'upheld', 'qp-ap1-uphold');
    },
  },
  {
    path: 'outcomes',
    name: "a reporter's outcomes a page at a time",
    async run({ s }) {
      const page = await s.reporterOutcomes({ platform: 'gameplatform', id: 'qp-rep0' }, 0, 2);
      await s.reporterOutcomes({ platform: 'gameplatform', id: 'qp-rep0' }, page.at(-1)?.seq ?? 0, 2);
    },
  },
  {
    path: 'stats',
    name: 'SLA breaches, reports, decided cases and appeals of a window',
    sorts: { [COLLECTION_NAMES.events]: 'one group per case decided in the window, all of them answered' },
    async run({ s }) {
      const c = await caseOf(s, USERS[9]!);
      await s.recordSlaBreach({ caseId: c.id, openingId: 'qp-r9-0', category: 'cheating', at: 9_000 });
      await Promise.all([s.slaBreachesSince(0), s.countReportsSince(0), s.caseTimelinesSince(0), s.appealsSince(0)]);
    },
  },
  {
    path: 'transparency',
    name: "a period's figures and its statements a page at a time",
    sorts: {
      [COLLECTION_NAMES.reports]: 'groups of the period by category and platform: a handful',
      [COLLECTION_NAMES.sanctions]: 'groups of the period by kind, ground and automation: a handful',
      [COLLECTION_NAMES.events]: "the median: the period's decision times (a report per period, not polled)",
      [COLLECTION_NAMES.appeals]: "the median: the period's appeal decision times (a report per period, not polled)",
    },
    async run({ s }) {
      await s.transparencyFigures({ from: 0, to: 100_000, categoryQuestionId: 'q1', categories: ['cheating', 'spam'], defaultCategory: 'other' });
      const page = await s.statementsIn({ from: 0, to: 100_000 }, null, 1);
      await s.statementsIn({ from: 0, to: 100_000 }, page.cursor, 1);
    },
  },
  {
    path: 'evidence sweep',
    name: 'captures, reads, the retention pages, deletion',
    async run({ s, made }) {
      const dismissed = (await s.getReport('qp-r3-0'))!.caseId;
      const item = (reportId: string, caseId: string, index: number, sha: string) =>
        s.recordEvidence({ reportId, index, caseId, state: 'captured', failure: null, detail: null, sha256: sha.repeat(64), size: 3, contentType: 'image/png', capturedAt: 2_000, at: 2_000 });
      await item('qp-r3-0', dismissed, 0, 'a');
      await item('qp-r3-1', dismissed, 0, 'b');
      // Held by the approval's sanction: passed by the cursor.
      await item('qp-r2-0', made['approvedCase']!, 0, 'c');
      await item('qp-r2-1', made['approvedCase']!, 0, 'd');
      await s.evidenceOfReports(['qp-r3-0', 'qp-r3-1']);
      await s.evidenceAudit('qp-r3-0');
      const expired = await allExpiredEvidence(s, Number.MAX_SAFE_INTEGER, 1);
      await s.deleteEvidence(expired, 10_000);
    },
  },
  {
    path: 'admin',
    name: 'API keys, users, moderators',
    scans: { [COLLECTION_NAMES.apiKeys]: "an admin's list of the API keys: a few dozen" },
    sorts: { [COLLECTION_NAMES.apiKeys]: "an admin's list of the API keys: a few dozen" },
    async run({ s }) {
      await s.getApiKey('qp-key-bound');
      await s.listApiKeys();
      await s.createApiKey({ key: 'qp-key-2', name: 'x', secretHash: 'h', permissions: [], elevated: false, admin: false, rateLimit: null, createdAt: 2, revokedAt: null });
      await s.revokeApiKey('qp-key-2', 3);
      await s.addUser({ id: 'qp-user', name: 'n', displayName: 'N', avatar: null });
      await s.getUser('qp-user');
      await s.addModerator({ id: 'qp-mod', username: 'mod', createdAt: 1 });
      await s.getModerator('qp-mod');
      await s.saveModerator({ id: 'qp-mod', username: 'renamed', createdAt: 2 });
      await s.listModerators();
    },
  },
  {
    path: 'chat',
    name: 'messages, case messages, deliveries',
    async run({ s }) {
      const m = await s.recordMessage({ channel: 'c', kind: 'case', content: 'x', dedupeKey: 'qp-dk' });
      await s.recordMessage({ channel: 'c', kind: 'case', content: 'x', dedupeKey: 'qp-dk' });
      await s.editMessage(m.id, 'y', 1);
      await s.listMessages(10);
      await s.setCaseMessage({ caseId: 'qp-c', channel: 'c', messageId: m.id, updatedAt: 1 });
      await s.getCaseMessage('qp-c');
      await s.recordDelivery({ key: 'qp-d', externalId: null, deliveredAt: 1 });
      await s.recordDelivery({ key: 'qp-d', externalId: null, deliveredAt: 2 });
      await s.findDelivery('qp-d');
    },
  },
  {
    path: 'replay',
    name: 'scanReports a page at a time',
    async run({ s }) {
      const page = await s.scanReports(null, 5);
      await s.scanReports(page.cursor, 5);
    },
  },
  {
    path: 'decisions',
    name: 'a decision on a case of more than one settlement page; a report moved off a decided case',
    async run({ s, db }) {
      const many = Array.from({ length: 2 * SETTLEMENT_PAGE + 50 }, (_, i) => report(`qp-big-${i}`, USERS[4]!, 3_000 + i, { reporterId: `qp-big-rep${i % 300}` }));
      for (let i = 0; i < many.length; i += 200) await s.saveReports(many.slice(i, i + 200));
      const big = await caseOf(s, USERS[4]!);
      await s.transitionCase(move(big, 'approved'));
      // As a save stopped before admitting its report, whose case was decided meanwhile.
      const reports = db().collection(COLLECTION_NAMES.reports);
      const { settledBy: _settled, ...settledReport } = (await reports.findOne({ _id: 'qp-big-0' as never }))!;
      await reports.insertOne({ ...settledReport, _id: 'qp-stray' as never, pending: true });
      await s.saveReports([report('qp-stray', USERS[4]!, 9_000)]);
    },
  },
  {
    path: 'privacy',
    name: "holds, a player's and a reporter's export and erasure (dry run, then for real), the audit",
    async run({ s }) {
      const keep = { categoryQuestionId: 'category', categories: ['cheating'] };
      const player = { kind: 'player' as const, userId: USERS[5]! };
      const reporter = { kind: 'reporter' as const, platform: 'gameplatform', reporterId: 'qp-rep1' };
      // A chat-platform reporter: their erasure also finds the recorder's DMs to them.
      const chatReporter = { kind: 'reporter' as const, platform: 'chatplatform', reporterId: 'qp-chat-rep' };
      await s.recordMessage({ channel: 'dm:qp-chat-rep', kind: 'reporter.dm', content: 'dismissed', dedupeKey: 'qp-dm' });
      const c = await caseOf(s, USERS[6]!);
      const { hold } = await s.placeHold({ id: 'qp-hold', target: { type: 'case', id: c.id }, reason: 'court order', until: null, placedBy: 'admin', placedAt: 9_000 });
      await s.getHold(hold.id);
      await s.holdsOn([{ type: 'case', id: c.id }, { type: 'player', id: USERS[6]! }], 9_500);
      await s.holdsOn([{ type: 'case', id: c.id }], null);
      for (const subject of [player, reporter, chatReporter]) {
        await s.subjectRecords(subject);
        const page = await s.subjectReports(subject, null, 2);
        await s.subjectReports(subject, page.cursor, 2);
        for (const dryRun of [true, false]) {
          for (let cursor: string | null = null, steps = 0; steps < 100; steps++) {
            const out = await s.eraseSubject({ subject, cursor, limit: 2, keep, pseudonym: 'qp-pseudo', at: 9_600, dryRun });
            if (out.cursor === null) break;
            cursor = out.cursor;
          }
        }
      }
      await s.releaseHold({ id: hold.id, by: 'admin', reason: null, at: 9_700 });
      const entry = await s.recordPrivacyAudit({ action: 'erase', requestId: 'qp-req', subjectRef: 'qp-ref', actor: 'admin', at: 9_800, detail: { reports: 3 } });
      await s.privacyAudit(entry.seq - 1, 10);
    },
  },
  {
    path: 'retention',
    name: 'every kind a page at a time, dry run then for real, twice (the second reads the cases kept the first time): decided cases, appeals, the audit, erased players',
    async run({ s, made }) {
      const keep = { categoryQuestionId: 'category', categories: ['cheating'] };
      await s.setCaseMessage({ caseId: made['approvedCase']!, channel: 'c', messageId: 'qp-retention', updatedAt: 1 });
      // Kept by a hold, an active ban and a waiting appeal: waiting until the next sweep.
      await s.placeHold({ id: 'qp-hold-retention', target: { type: 'player', id: USERS[3]! }, reason: 'court order', until: null, placedBy: 'admin', placedAt: 9_900 });
      for (let round = 0; round < 2; round++) {
        for (const kind of RETENTION_SWEEP_KINDS) {
          for (const dryRun of [true, false]) {
            for (let cursor: string | null = null, steps = 0; steps < 1_000; steps++) {
              const out = await s.sweepRetention({ kind, before: Number.MAX_SAFE_INTEGER, cursor, limit: 2, keep, at: 10_000, dryRun });
              if (out.cursor === null) break;
              cursor = out.cursor;
            }
          }
        }
        await s.releaseHold({ id: 'qp-hold-retention', by: 'admin', reason: null, at: 10_000 });
      }
    },
  },
  {
    path: 'start',
    name: 'start on a database in use: the migrations found recorded',
    async run(x) {
      await (await x.reopen()).close();
    },
  },
  {
    path: 'start',
    name: "start on an earlier version's database: every migration run (MIGRATIONS=run), an old ban among them",
    async run(x) {
      await x.db().collection(COLLECTION_NAMES.migrations).deleteMany({});
      const c = await caseOf(x.s, USERS[10]!);
      await x.db().collection(COLLECTION_NAMES.bans).insertOne({ _id: USERS[10] as never, userId: USERS[10], caseId: c.id, at: 2_000 });
      await (await x.reopen()).close();
    },
  },
];

/** Store methods no entry needs to call. */
const NOT_QUERIES = new Set(['kind', 'close']);

export type QueryPlanContext = Pick<MongoSuiteContext, 'admin' | 'freshStore' | 'sameDatabase' | 'lastDatabase'> & { log: QueryLog };

export function describeQueryPlans(ctx: QueryPlanContext): void {
  describe('MongoDB store: an index behind every query', () => {
    it('explains every query of each hot path without a collection scan or an unbounded sort; every query the contract run sent is listed', { timeout: 300_000 }, async () => {
      const faults: string[] = [];
      const listed = new Set<string>();
      const called = new Set<string>();
      let plain: Store | undefined;
      const check = async (entry: Pick<Entry, 'path' | 'name' | 'scans' | 'sorts'>, queries: Query[]) => {
        for (const q of queries) {
          listed.add(q.key);
          // ignoreUndefined: as the store's client sends the filter (connect.ts).
          const plan = await ctx.admin.db(ctx.lastDatabase()).command({ explain: q.explain, verbosity: 'executionStats' }, { ignoreUndefined: true });
          const { scans, sorts } = planFaults(plan);
          const allowed = (a: Allowance | undefined) => a?.[q.collection] ?? ALWAYS[q.collection];
          const wrong = [...(allowed(entry.scans) ? [] : scans), ...(allowed(entry.sorts) ? [] : sorts)];
          if (wrong.length > 0) faults.push(`${entry.path} / ${entry.name}: ${[...new Set(wrong)].join(', ')} in ${q.key}`);
        }
      };
      const start = { path: 'start', name: 'start on an empty database' };
      await check(start, await ctx.log.during(async () => (plain = await ctx.freshStore())));
      // Records which methods the entries call: each of the port's is on some hot path here.
      const s = new Proxy(plain!, { get: (t, p) => (called.add(String(p)), Reflect.get(t, p)) });
      const x: Seeded = { s, reopen: () => ctx.sameDatabase(), db: () => ctx.admin.db(ctx.lastDatabase()), made: {} };
      try {
        for (const entry of HOT_PATHS) await check(entry, await ctx.log.during(() => entry.run(x)));
      } finally {
        await plain!.close();
      }
      expect(faults).toEqual([]);
      expect(Object.keys(plain!).filter((m) => !NOT_QUERIES.has(m) && !called.has(m)), 'store methods no hot-path entry calls').toEqual([]);
      const unlisted = [...ctx.log.seen].filter(([key]) => !listed.has(key)).map(([key, example]) => `${key}\n  e.g. ${JSON.stringify(example)}`);
      expect(unlisted, 'queries the contract run sent that no hot-path entry sends: add the call to HOT_PATHS').toEqual([]);
      expect([...ctx.log.unbounded], 'reads sent outside a transaction without maxTimeMS').toEqual([]);
    });
  });
}
