import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient, type Document } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { MigrationsPendingError, StoreFullError, type MigrateOptions, type MigrationProgress, type Store } from '@rm/storage';
import { caseMover, FLOOD_CALLERS, FLOOD_REPORTS, report, statementFixture } from '@rm/storage/contract';
import { SETTLEMENT_PAGE } from './settlements.js';
import { COLLECTION_NAMES } from './collections.js';
import { connectMongo } from './connect.js';
import { MIGRATIONS_CHECK_MS, REPORT_OUTCOMES_BACKFILL, REPORTER_STATS_BACKFILL } from './migrations.js';
import { migrateMongo, openMongoStore } from './mongodb.adapter.js';
import { OLD_BANS_CHECK_MS } from './sanctions.js';
import { skipUnlessRequired, startBareContainer, type TestServer } from './test-server.js';

/**
 * What only MongoDB can show (run from mongodb.test.ts when a server is reachable; named .contract.ts as the shared suites are: test code that is not a test file): the
 * migrations (run once, paged, resumed; a store opened before them waits), the reporter
 * credibility backfill and the bans migration, the refusal of a standalone or uninitiated server,
 * transient and unknown-commit errors injected with failCommand fail points. The index behind
 * every query is query-plans.contract.ts's.
 */
export interface MongoSuiteContext {
  server: TestServer;
  admin: MongoClient;
  /** A store on a fresh database; its name is lastDatabase(). */
  freshStore(): Promise<Store>;
  /** Another store on the last fresh database (another process, in effect). */
  sameDatabase(): Promise<Store>;
  lastDatabase(): string;
  /** How many attempts each transaction of the stores took, in the order they ended (cleared by a test that reads it). */
  attempts: number[];
}

const move = caseMover('mongo-only');

export function describeMongoProduction(ctx: MongoSuiteContext): void {
  const db = () => ctx.admin.db(ctx.lastDatabase());
  /** `cli migrate` on the last fresh database. */
  const migrate = (options?: MigrateOptions) => migrateMongo(ctx.server.url, ctx.lastDatabase(), options);
  const migrations = () => db().collection<{ _id: string; doneAt?: number; cursor?: string; count?: number }>(COLLECTION_NAMES.migrations);

  describe('MongoDB store: migrations, once per deployment', () => {
    const ALL = ['sanctions_from_bans', REPORTER_STATS_BACKFILL, REPORT_OUTCOMES_BACKFILL, 'bound_moderators_backfill'];

    it('a store opened before they are recorded says so in one line and waits until `cli migrate` has run them', { timeout: 60_000 }, async () => {
      await (await ctx.freshStore()).close();
      await migrations().deleteMany({});
      const lines: string[] = [];
      let opened: Store | undefined;
      const opening = openMongoStore(ctx.server.url, ctx.lastDatabase(), { migrations: 'wait', say: (line) => lines.push(line) }).then((s) => (opened = s));
      for (const deadline = Date.now() + 20_000; lines.length === 0 && Date.now() < deadline; ) await sleep(50);
      expect(lines).toEqual([`MongoDB migrations not yet run: ${ALL.join(', ')}; run \`npm run cli -- migrate\` (Kubernetes: the migrate Job); waiting`]);
      await sleep(500);
      expect(opened).toBeUndefined();
      expect((await migrate()).applied).toEqual(ALL);
      const started = Date.now();
      const s = await opening;
      try {
        expect(Date.now() - started).toBeLessThan(MIGRATIONS_CHECK_MS + 5_000);
        expect(lines).toHaveLength(1);
      } finally {
        await s.close();
      }
    });

    it("a store that may not wait ('fail', the CLI) refuses with that line", async () => {
      await (await ctx.freshStore()).close();
      await migrations().deleteOne({ _id: 'bound_moderators_backfill' });
      const refused = openMongoStore(ctx.server.url, ctx.lastDatabase(), { migrations: 'fail' });
      await expect(refused).rejects.toThrow(MigrationsPendingError);
      await expect(refused).rejects.toThrow(/^MongoDB migrations not yet run: bound_moderators_backfill; run `npm run cli -- migrate`/);
    });

    it('a run stopped after a page resumes at its recorded cursor, counting no case twice; a recorded migration is not run again', async () => {
      const a = await ctx.freshStore();
      try {
        const saved = await a.saveReports(['u1', 'u2', 'u3'].map((u, i) => report(`p${i}`, u, 1_000, { reporterId: 'rep-1' })));
        for (const r of saved) await a.transitionCase(move((await a.getCase(r.caseId))!, 'approved'));
      } finally {
        await a.close();
      }
      // As a database that used MongoDB before triage: no counts, the backfill not recorded.
      await db().collection(COLLECTION_NAMES.reporterStats).deleteMany({});
      await migrations().deleteOne({ _id: REPORTER_STATS_BACKFILL });
      const approved = async () => (await db().collection(COLLECTION_NAMES.reporterStats).findOne({ reporterId: 'rep-1' }))?.['approved'];

      // Interrupted after its first page of one case: that case's count and the cursor past it committed together.
      const progress: MigrationProgress[] = [];
      const stop = new AbortController();
      const first = await migrate({ pageSize: 1, signal: stop.signal, onProgress: (p) => (progress.push(p), stop.abort()) });
      expect(first).toMatchObject({ applied: [], pending: [REPORTER_STATS_BACKFILL] });
      expect(progress).toEqual([{ migration: REPORTER_STATS_BACKFILL, unit: 'cases', count: 1, done: false }]);
      expect(await migrations().findOne({ _id: REPORTER_STATS_BACKFILL })).toEqual({ _id: REPORTER_STATS_BACKFILL, cursor: expect.any(String), count: 1 });
      expect(await approved()).toBe(1);

      // Resumed: the two cases left, then an empty page that records it done.
      const second = await migrate({ pageSize: 1, onProgress: (p) => progress.push(p) });
      expect(second).toMatchObject({ applied: [REPORTER_STATS_BACKFILL], pending: [] });
      expect(progress.slice(1).map((p) => [p.count, p.done])).toEqual([
        [2, false],
        [3, false],
        [3, true],
      ]);
      expect(await approved()).toBe(3);
      expect(await migrations().findOne({ _id: REPORTER_STATS_BACKFILL })).toMatchObject({ doneAt: expect.any(Number), count: 3 });

      // Recorded: not run again, even with the counts gone.
      await db().collection(COLLECTION_NAMES.reporterStats).deleteMany({});
      const third = await migrate({ pageSize: 1, onProgress: (p) => progress.push(p) });
      expect(third).toMatchObject({ applied: [], pending: [] });
      expect(progress).toHaveLength(4);
      expect(await approved()).toBeUndefined();
    });
  });

  describe('MongoDB store: reporter credibility', () => {
    it('counts past decisions once, a page at a time, even when two runs go at once', async () => {
      const a = await ctx.freshStore();
      try {
        const [s1, s2] = await a.saveReports([report('b1', 'u1', 1_000, { reporterId: 'rep-1' }), report('b2', 'u2', 1_000, { reporterId: 'rep-1' })]);
        await a.saveReports([report('b3', 'u1', 1_100, { reporterId: 'rep-2' })]);
        await a.transitionCase(move((await a.getCase(s1!.caseId))!, 'approved'));
        await a.transitionCase(move((await a.getCase(s2!.caseId))!, 'dismissed'));
      } finally {
        await a.close();
      }
      // As a database that used MongoDB before triage: no counts, no record of the backfill.
      await db().collection(COLLECTION_NAMES.reporterStats).deleteMany({});
      await db().collection(COLLECTION_NAMES.migrations).deleteMany({});
      // Two Jobs at once, a case per page: their pages conflict on the migration's document.
      const runs = await Promise.all([migrate({ pageSize: 1 }), migrate({ pageSize: 1 })]);
      expect(runs.flatMap((r) => r.applied).filter((name) => name === REPORTER_STATS_BACKFILL)).toHaveLength(1);
      const b = await ctx.sameDatabase();
      try {
        const expected = [
          { platform: 'gameplatform', id: 'rep-1', approved: 1, dismissed: 1 },
          { platform: 'gameplatform', id: 'rep-2', approved: 1, dismissed: 0 },
        ];
        const stats = async (s: Store) => (await s.reporterStats([{ platform: 'gameplatform', id: 'rep-1' }, { platform: 'gameplatform', id: 'rep-2' }])).sort((x, y) => x.id.localeCompare(y.id));
        expect(await stats(b)).toEqual(expected);
        expect(await migrations().findOne({ _id: REPORTER_STATS_BACKFILL })).toMatchObject({ doneAt: expect.any(Number), count: 2 });
        await migrate();
        expect(await stats(b)).toEqual(expected);
      } finally {
        await b.close();
      }
    });

    it('an undo of a decision counted before the reporter had a document leaves 0, never -1', async () => {
      const s = await ctx.freshStore();
      try {
        const [saved] = await s.saveReports([report('n1', 'u1', 1_000, { reporterId: 'rep-1' })]);
        const dismissed = (await s.transitionCase(move((await s.getCase(saved!.caseId))!, 'dismissed')))!;
        await db().collection(COLLECTION_NAMES.reporterStats).deleteMany({});
        await s.transitionCase(move(dismissed, 'open'));
        expect(await s.reporterStats([{ platform: 'gameplatform', id: 'rep-1' }])).toEqual([{ platform: 'gameplatform', id: 'rep-1', approved: 0, dismissed: 0 }]);
      } finally {
        await s.close();
      }
    });
  });

  describe('MongoDB store: reporter outcomes of earlier decisions', () => {
    it('are recorded once by the migration, in the order the cases were decided; an outcome already recorded is kept', async () => {
      const a = await ctx.freshStore();
      let kept: number;
      try {
        const [s1, s2, s3] = await a.saveReports([
          report('o1', 'u1', 1_000, { reporterId: 'rep-1' }),
          report('o2', 'u2', 1_000, { reporterId: 'rep-1' }),
          report('o3', 'u3', 1_000, { reporterId: 'rep-1' }),
        ]);
        await a.transitionCase(move((await a.getCase(s1!.caseId))!, 'approved', { event: { decisionId: 'bf-1', action: 'approve', moderatorId: 'm', at: 7_000, result: null } }));
        await a.transitionCase(move((await a.getCase(s2!.caseId))!, 'dismissed', { event: { decisionId: 'bf-2', action: 'dismiss', moderatorId: 'm', at: 6_000, result: null } }));
        await a.transitionCase(move((await a.getCase(s3!.caseId))!, 'approved', { event: { decisionId: 'bf-3', action: 'approve', moderatorId: 'm', at: 8_000, result: null } }));
        kept = (await a.reporterOutcomes({ platform: 'gameplatform', id: 'rep-1' }, 0, 10)).find((o) => o.reportId === 'o3')!.seq;
      } finally {
        await a.close();
      }
      // As a database that used MongoDB before outcomes, except o3's, recorded by a newer process.
      await db().collection(COLLECTION_NAMES.reportOutcomes).deleteMany({ _id: { $in: ['o1', 'o2'] } as never });
      await db().collection(COLLECTION_NAMES.migrations).deleteMany({});
      await Promise.all([migrate(), migrate()]);
      const [b, c] = await Promise.all([ctx.sameDatabase(), ctx.sameDatabase()]);
      try {
        const outcomes = await b.reporterOutcomes({ platform: 'gameplatform', id: 'rep-1' }, 0, 10);
        expect(outcomes.map((o) => [o.reportId, o.actioned, o.at])).toEqual([
          ['o3', true, 8_000],
          ['o2', false, 6_000],
          ['o1', true, 7_000],
        ]);
        expect(outcomes[0]!.seq).toBe(kept);
        expect(await db().collection(COLLECTION_NAMES.migrations).countDocuments({ _id: REPORT_OUTCOMES_BACKFILL as never })).toBe(1);
        expect(await db().collection(COLLECTION_NAMES.reportOutcomes).countDocuments({})).toBe(3);
      } finally {
        await b.close();
        await c.close();
      }
    });
  });

  describe('MongoDB store: floods and big cases', () => {
    it(`${FLOOD_REPORTS} reports about one player from ${FLOOD_CALLERS} callers on two processes: no transaction retried more than 3 times`, { timeout: 300_000 }, async () => {
      const a = await ctx.freshStore();
      const b = await ctx.sameDatabase();
      try {
        ctx.attempts.length = 0;
        const perCaller = FLOOD_REPORTS / FLOOD_CALLERS;
        const saved = (
          await Promise.all(
            Array.from({ length: FLOOD_CALLERS }, async (_, caller) => {
              const s = caller % 2 === 0 ? a : b;
              const out = [];
              for (let i = 0; i < perCaller; i += 25) {
                out.push(...(await s.saveReports(Array.from({ length: 25 }, (_, k) => report(`fl-${caller}-${i + k}`, 'target', 1_000 + i + k, { reporterId: `rep-${k}` })))));
              }
              return out;
            }),
          )
        ).flat();
        expect(new Set(saved.map((x) => x.caseId)).size).toBe(1);
        expect((await a.caseReportIds(saved[0]!.caseId)).length).toBe(FLOOD_REPORTS);
        expect(ctx.attempts.length).toBeGreaterThanOrEqual(FLOOD_REPORTS / 25);
        expect(Math.max(...ctx.attempts) - 1, 'retries of the most retried transaction').toBeLessThanOrEqual(3);
        // Nothing is left marked pending once every save has returned.
        expect(await db().collection(COLLECTION_NAMES.reports).countDocuments({ pending: true })).toBe(0);
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('a decision on a case of 1,000 reports settles them a bounded page per transaction: every outcome, each reporter counted once', { timeout: 120_000 }, async () => {
      const s = await ctx.freshStore();
      try {
        // 250 reporters of 4 reports each, so reporters straddle the pages.
        for (let i = 0; i < 1_000; i += 100) {
          await s.saveReports(Array.from({ length: 100 }, (_, k) => report(`big-${i + k}`, 'target', 1_000 + i + k, { reporterId: `rep-${String((i + k) % 250).padStart(3, '0')}` })));
        }
        const kase = (await s.openCaseOfUser('target'))!;
        ctx.attempts.length = 0;
        await s.transitionCase(move(kase, 'approved'));
        // The decision's own transaction, then ceil(1,000 / SETTLEMENT_PAGE) pages and the last, empty one.
        expect(ctx.attempts).toHaveLength(1 + Math.ceil(1_000 / SETTLEMENT_PAGE) + 1);
        const reporters = Array.from({ length: 250 }, (_, i) => ({ platform: 'gameplatform', id: `rep-${String(i).padStart(3, '0')}` }));
        expect((await s.reporterStats(reporters)).filter((r) => r.approved !== 1 || r.dismissed !== 0)).toEqual([]);
        let outcomes = 0;
        for (const r of reporters) outcomes += (await s.reporterOutcomes(r, 0, 10)).filter((o) => o.actioned && o.caseId === kase.id).length;
        expect(outcomes).toBe(1_000);
        expect(await db().collection(COLLECTION_NAMES.settlements).countDocuments({})).toBe(0);
      } finally {
        await s.close();
      }
    });

    it('a save stopped before it admitted its reports: saved again, a report the decision did not settle moves to the next case', async () => {
      const s = await ctx.freshStore();
      try {
        const [first] = await s.saveReports([report('st-1', 'target', 1_000)]);
        const decided = (await s.transitionCase(move((await s.getCase(first!.caseId))!, 'approved')))!;
        // As a save stopped between its commit and its admission, while the case was decided.
        const reports = db().collection(COLLECTION_NAMES.reports);
        const { settledBy: _settled, ...settled } = (await reports.findOne({ _id: 'st-1' as never }))!;
        const stray = { ...settled, _id: 'st-2', receivedAt: 1_100, pending: true };
        await reports.insertOne(stray as never);
        await reports.insertOne({ ...stray, _id: 'st-3', settledBy: 'an-earlier-settlement' } as never);
        const [again, reached] = await s.saveReports([report('st-2', 'target', 1_100), report('st-3', 'target', 1_200)]);
        const next = (await s.openCaseOfUser('target'))!;
        expect(again).toEqual({ reportId: 'st-2', caseId: next.id, created: false, openedCase: true });
        expect(reached).toEqual({ reportId: 'st-3', caseId: decided.id, created: false, openedCase: false });
        expect(await s.caseReportIds(decided.id)).toEqual(['st-1', 'st-3']);
        expect(await s.caseReportIds(next.id)).toEqual(['st-2']);
        expect(await reports.countDocuments({ pending: true })).toBe(0);
      } finally {
        await s.close();
      }
    });
  });

  describe('MongoDB store: bans of earlier versions', () => {
    const oldBan = async (userId: string, caseId: string) => {
      await db().collection(COLLECTION_NAMES.cases).insertOne({ _id: caseId as never, userId, state: 'approved', claimedBy: null, version: 3, createdAt: 1_000, updatedAt: 2_000, openedBy: `r-${caseId}` });
      await db().collection(COLLECTION_NAMES.bans).insertOne({ _id: userId as never, userId, caseId, at: 2_000 });
    };

    it('become permanent sanctions by the migration, each with its feed event', async () => {
      await (await ctx.freshStore()).close();
      await oldBan('u-old', 'c-old');
      await migrations().deleteOne({ _id: 'sanctions_from_bans' });
      expect((await migrate()).applied).toEqual(['sanctions_from_bans']);
      const s = await ctx.sameDatabase();
      try {
        expect(await s.sanctionsOfUser('u-old')).toMatchObject([{ id: 'ban-c-old', caseId: 'c-old', state: 'active', expiresAt: null }]);
        expect((await s.sanctionFeed(0, 10)).map((e) => [e.type, e.sanctionId])).toEqual([['sanction.created', 'ban-c-old']]);
        expect(await db().collection(COLLECTION_NAMES.bans).countDocuments()).toBe(0);
      } finally {
        await s.close();
      }
    });

    it('written by an old process while this one runs, are migrated on read', async () => {
      const s = await ctx.freshStore();
      try {
        await oldBan('u-late', 'c-late');
        await new Promise((resolve) => setTimeout(resolve, OLD_BANS_CHECK_MS + 200));
        expect((await s.sanctionFeed(0, 10)).map((e) => e.sanctionId)).toEqual(['ban-c-late']);
        expect(await s.isBanned('u-late')).toBe(true);
      } finally {
        await s.close();
      }
    });
  });

  describe("MongoDB store: trusted systems' sanctions of earlier versions", () => {
    it("keep their key, now their creator's own (the index unique across systems is replaced), and get their key's bound moderator by the migration", async () => {
      const a = await ctx.freshStore();
      try {
        await a.createApiKey({ key: 'key-bound', name: 'vac', secretHash: 'h', permissions: ['sanctions.write'], elevated: false, admin: false, rateLimit: null, createdAt: 1, revokedAt: null, moderatorId: 'mod-1' });
      } finally {
        await a.close();
      }
      // As an earlier version left them: keys unique across systems, no bound moderator recorded.
      const sanctions = db().collection(COLLECTION_NAMES.sanctions);
      await sanctions.dropIndex('sanctions_by_idempotency_key_v2');
      await sanctions.createIndex({ idempotencyKey: 1 }, { name: 'sanctions_by_idempotency_key', unique: true, partialFilterExpression: { idempotencyKey: { $type: 'string' } } });
      const old = { userId: 'u1', caseId: null, kind: 'ban', blocksLogin: true, category: 'cheating', source: { type: 'anticheat', id: 'd' }, effectiveAt: null, ladder: null, evidence: [], statement: null, reason: 'cheat', createdAt: 1_000, expiresAt: null, state: 'active', liftedAt: null, liftedBy: null, liftReason: null };
      await sanctions.insertMany([
        { ...old, _id: 'old-bound' as never, idempotencyKey: 'det-1', moderatorId: 'key-bound' },
        { ...old, _id: 'old-unbound' as never, idempotencyKey: 'det-2', moderatorId: 'key-unbound' },
      ]);
      await migrations().deleteOne({ _id: 'bound_moderators_backfill' });
      expect((await migrate()).applied).toEqual(['bound_moderators_backfill']);
      const s = await ctx.sameDatabase();
      try {
        expect(await s.getSanction('old-bound')).toMatchObject({ moderatorId: 'key-bound', boundModeratorId: 'mod-1', idempotencyKey: 'det-1' });
        expect(await s.getSanction('old-unbound')).toMatchObject({ moderatorId: 'key-unbound', boundModeratorId: null });
        expect((await sanctions.indexes()).map((i) => i.name)).not.toContain('sanctions_by_idempotency_key');
        const item = (id: string, moderatorId: string) => ({ id, userId: 'u2', kind: 'ban', blocksLogin: true, category: 'cheating', source: { type: 'anticheat', id: 'd' }, idempotencyKey: 'det-1', evidence: [], reason: 'cheat', moderatorId, expiresAt: null, statement: statementFixture({ from: 2_000 }), effects: [] });
        const [other, same] = await s.createSanctions({ items: [item('new-other', 'key-unbound'), item('new-same', 'key-bound')], at: 2_000, effectiveAt: null, sourceId: 'x' });
        expect([other!.sanction.id, other!.created, same!.sanction.id, same!.created]).toEqual(['new-other', true, 'old-bound', false]);
      } finally {
        await s.close();
      }
    });
  });

  describe('MongoDB store: injected failures (failCommand)', () => {
    /** Sets a fail point; false when the server does not run test commands. */
    const failPoint = async (data: Document, times = 1): Promise<boolean> => {
      try {
        await ctx.admin.db('admin').command({ configureFailPoint: 'failCommand', mode: { times }, data });
        return true;
      } catch {
        return false;
      }
    };
    const off = () => ctx.admin.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });

    it('a transient error inside the intake transaction is retried: the batch is stored once', async ({ skip }) => {
      const s = await ctx.freshStore();
      try {
        if (!(await failPoint({ failCommands: ['insert'], errorCode: 112, errorLabels: ['TransientTransactionError'] }))) skipUnlessRequired(skip, 'the server does not run test commands');
        const saved = await s.saveReports([report('t1', 'u1', 1_000), report('t2', 'u1', 1_100)]);
        expect(saved.map((r) => r.created)).toEqual([true, true]);
        expect(await s.caseReportIds(saved[0]!.caseId)).toEqual(['t1', 't2']);
        expect((await s.openCases('', 10)).length).toBe(1);
      } finally {
        await off();
        await s.close();
      }
    });

    it('an unknown commit result of a decision is retried: applied once, its feed event once', async ({ skip }) => {
      const s = await ctx.freshStore();
      try {
        const [saved] = await s.saveReports([report('k1', 'u1', 1_000)]);
        const c = (await s.getCase(saved!.caseId))!;
        // The commit applies, then its answer is lost (a write-concern timeout): the result is unknown
        // to the driver, which commits again; the second commit finds it done.
        const lost = { failCommands: ['commitTransaction'], writeConcernError: { code: 64, codeName: 'WriteConcernFailed', errmsg: 'injected', errInfo: { wtimeout: true } } };
        if (!(await failPoint(lost))) skipUnlessRequired(skip, 'the server does not run test commands');
        const approved = await s.transitionCase(move(c, 'approved', { ban: 'set' }));
        expect(approved).toMatchObject({ state: 'approved', version: 2 });
        expect(await s.caseHistory(c.id)).toHaveLength(1);
        expect(await s.sanctionFeed(0, 10)).toHaveLength(1);
      } finally {
        await off();
        await s.close();
      }
    });

    it("the server's OutOfDiskSpace is the port's StoreFullError, and the same write succeeds once space is back", async ({ skip }) => {
      const s = await ctx.freshStore();
      try {
        const full = { failCommands: ['insert'], errorCode: 14031 };
        if (!(await failPoint(full, 100))) skipUnlessRequired(skip, 'the server does not run test commands');
        const refused = await s.saveReports([report('f1', 'u1', 1_000)]).catch((err: unknown) => err);
        expect(refused).toBeInstanceOf(StoreFullError);
        expect(await s.getReport('f1')).toBeNull();
        await off();
        expect((await s.saveReports([report('f1', 'u1', 1_000)])).map((r) => r.created)).toEqual([true]);
      } finally {
        await off();
        await s.close();
      }
    });
  });

  describe('MongoDB store: deployments it refuses at start', () => {
    it('a standalone server, and an uninitiated replica-set member, each with the message saying so', { timeout: 300_000 }, async ({ skip }) => {
      const standalone = await startBareContainer([]);
      if (!standalone) return skipUnlessRequired(skip, 'needs a Docker engine to start a standalone and an uninitiated server');
      try {
        await expect(connectMongo(standalone.url)).rejects.toThrow(/standalone mongod/);
      } finally {
        await standalone.stop();
      }
      const uninitiated = (await startBareContainer(['--replSet', 'rs9']))!;
      try {
        await expect(connectMongo(uninitiated.url)).rejects.toThrow(/not initiated: run rs.initiate\(\)/);
      } finally {
        await uninitiated.stop();
      }
    });

    it('a wrong replicaSet name, with the name the server has', async () => {
      const hello = await ctx.admin.db('admin').command({ hello: 1 });
      if (typeof hello['setName'] !== 'string') return;
      const url = new URL(ctx.server.url.replace(/^mongodb:/, 'http:'));
      if (url.host.includes(',')) return;
      url.searchParams.delete('directConnection');
      url.searchParams.set('replicaSet', `${hello['setName']}-not`);
      await expect(connectMongo(url.toString().replace(/^http:/, 'mongodb:'))).rejects.toThrow(new RegExp(`belongs to replica set ${hello['setName']}`));
    });
  });
}
