import type { Document, MongoClient } from 'mongodb';
import { answeringStoreFull, DuplicateError, type MigrateOptions, type MigrationReport, type Page, type PendingMigrations, type ReporterRecord, type Store } from '@rm/storage';
import { collectionsOf, type Collections } from './collections.js';
import { connectMongo } from './connect.js';
import { toApiKey, toApiKeyDoc, toCase, toEvent, toModerator, toModeratorDoc, toReport, toUser, toUserDoc } from './documents.js';
import { isDuplicateKey, isOutOfDiskSpace } from './driver-errors.js';
import { ensureSchema } from './indexes.js';
import { messageMethods } from './messages.js';
import { mongoQueueHealth } from './queue-health.js';
import { saveReports } from './save-reports.js';
import { awaitMigrations, runMigrations } from './migrations.js';
import { sanctionMethods } from './sanctions.js';
import { transitionCase } from './transition-case.js';
import { settle } from './settlements.js';
import { watchTransactions } from './transactions.js';
import { triageMethods } from './triage.js';
import { refuseUndefinedKeys } from './undefined-keys.js';
import { evidenceMethods } from './evidence.js';
import { reporterOutcomeMethods } from './reporter-outcomes.js';
import { appealMethods } from './appeals.js';
import { transparencyMethods } from './transparency.js';
import { privacyMethods } from './privacy.js';
import { retentionMethods } from './retention.js';

export interface MongoStoreOptions {
  /** What a test may watch: every command the store sends (the query-plan suite lists their shapes). */
  onCommand?: (command: Document) => void;
  /** How many attempts each transaction took (the flood test reads them). */
  onTransaction?: (attempts: number) => void;
  /** When migrations are not yet recorded (default `wait`). */
  migrations?: PendingMigrations;
  /** Where the one line about them goes (default stderr). */
  say?: (line: string) => void;
}

const sayOnStderr = (line: string) => void process.stderr.write(`${line}\n`);

/**
 * The production store: MongoDB through the official driver. Needs a replica set or a sharded
 * cluster (decisions are transactions); creates its collections and indexes at start. Runs no
 * data migration unless told to (`migrations: 'run'`): it checks that all are recorded, and
 * otherwise waits for `cli migrate` (migrations.ts).
 */
export async function openMongoStore(url: string, dbName: string, options: MongoStoreOptions = {}): Promise<Store> {
  const { onCommand, onTransaction } = options;
  const client = await connectMongo(url, { monitorCommands: onCommand !== undefined });
  if (onCommand) client.on('commandStarted', (e) => onCommand(e.command));
  if (onTransaction) watchTransactions(client, onTransaction);
  try {
    const db = client.db(dbName);
    const c = collectionsOf(db);
    await ensureSchema(db, c);
    await awaitMigrations(client, c, options.migrations ?? 'wait', options.say ?? sayOnStderr);
    return answeringStoreFull(refuseUndefinedKeys(mongoStore(client, c)), isOutOfDiskSpace);
  } catch (err) {
    await client.close();
    throw err;
  }
}

/** `cli migrate` on MongoDB: the collections and indexes, then every migration not yet recorded. */
export async function migrateMongo(url: string, dbName: string, options: MigrateOptions = {}): Promise<MigrationReport> {
  const client = await connectMongo(url);
  try {
    const db = client.db(dbName);
    const c = collectionsOf(db);
    await ensureSchema(db, c);
    return await runMigrations(client, c, options);
  } finally {
    await client.close();
  }
}

async function insertOrDuplicate(what: string, id: string, insert: () => Promise<unknown>): Promise<void> {
  try {
    await insert();
  } catch (err) {
    if (isDuplicateKey(err)) throw new DuplicateError(what, id);
    throw err;
  }
}

function mongoStore(client: MongoClient, c: Collections): Store {
  let closing: Promise<void> | undefined;
  return {
    kind: 'mongodb',
    async createApiKey(k) {
      await insertOrDuplicate('API key', k.key, () => c.apiKeys.insertOne(toApiKeyDoc(k)));
    },
    async getApiKey(key) {
      const doc = await c.apiKeys.findOne({ _id: key });
      return doc ? toApiKey(doc) : null;
    },
    async listApiKeys() {
      return (await c.apiKeys.find().sort({ createdAt: 1, _id: 1 }).toArray()).map(toApiKey);
    },
    async revokeApiKey(key, at) {
      const result = await c.apiKeys.updateOne({ _id: key, revokedAt: null }, { $set: { revokedAt: at } });
      return result.matchedCount > 0;
    },
    async addUser(u) {
      await insertOrDuplicate('user', u.id, () => c.users.insertOne(toUserDoc(u)));
    },
    async getUser(id) {
      const doc = await c.users.findOne({ _id: id });
      return doc ? toUser(doc) : null;
    },
    async addModerator(m) {
      await insertOrDuplicate('moderator', m.id, () => c.moderators.insertOne(toModeratorDoc(m)));
    },
    async saveModerator(m) {
      await c.moderators.updateOne({ _id: m.id }, { $set: { username: m.username }, $setOnInsert: { createdAt: m.createdAt } }, { upsert: true });
    },
    async getModerator(id) {
      const doc = await c.moderators.findOne({ _id: id });
      return doc ? toModerator(doc) : null;
    },
    async listModerators() {
      return (await c.moderators.find().sort({ _id: 1 }).toArray()).map(toModerator);
    },
    saveReports: (reports) => saveReports(client, c, reports),
    async getReport(id) {
      const doc = await c.reports.findOne({ _id: id });
      return doc ? toReport(doc) : null;
    },
    async listReportsByUser(userId, page: Page) {
      // The count and the page from one snapshot (one after the other: the session's first read
      // fixes its time), so they agree while reports are stored.
      const { total, docs } = await client.withSession({ snapshot: true }, async (session) => ({
        total: await c.reports.countDocuments({ userId }, { session }),
        // limit(0) means "no limit" to MongoDB; a page of 0 is empty, as in SQL.
        docs: page.limit > 0 ? await c.reports.find({ userId }, { session }).sort({ receivedAt: -1, _id: -1 }).skip(page.offset).limit(page.limit).toArray() : [],
      }));
      return { total, reports: docs.map(toReport) };
    },
    async getCase(caseId) {
      const doc = await c.cases.findOne({ _id: caseId });
      return doc ? toCase(doc) : null;
    },
    async openCaseOfUser(userId) {
      const doc = await c.cases.findOne({ userId, open: true });
      return doc ? toCase(doc) : null;
    },
    async caseReportIds(caseId) {
      const docs = await c.reports.find({ caseId }, { projection: { _id: 1 } }).sort({ receivedAt: 1, _id: 1 }).toArray();
      return docs.map((d) => d._id);
    },
    async caseReporters(caseId) {
      const groups = await c.reports
        .aggregate<{ _id: ReporterRecord }>([
          { $match: { caseId } },
          { $group: { _id: { platform: '$reporterPlatform', id: '$reporterId' } } },
          { $sort: { '_id.platform': 1, '_id.id': 1 } },
        ])
        .toArray();
      return groups.map((g) => ({ platform: g._id.platform, id: g._id.id }));
    },
    transitionCase: (t) => transitionCase(client, c, t),
    settleDecision: (decisionId) => settle(client, c, decisionId),
    async findDecision(decisionId) {
      const doc = await c.events.findOne({ decisionId });
      return doc ? toEvent(doc) : null;
    },
    async caseHistory(caseId) {
      return (await c.events.find({ caseId }).sort({ seq: 1 }).toArray()).map(toEvent);
    },
    async lastCaseEvent(caseId) {
      // case_events_by_case, read backwards.
      const [last] = await c.events.find({ caseId }).sort({ seq: -1 }).limit(1).toArray();
      return last ? toEvent(last) : null;
    },
    ...messageMethods(c),
    ...mongoQueueHealth(client, c),
    ...sanctionMethods(client, c),
    ...triageMethods(client, c),
    ...evidenceMethods(client, c),
    ...reporterOutcomeMethods(c),
    ...appealMethods(client, c),
    ...transparencyMethods(client, c),
    ...privacyMethods(client, c),
    ...retentionMethods(client, c),
    close() {
      closing ??= client.close();
      return closing;
    },
  };
}
