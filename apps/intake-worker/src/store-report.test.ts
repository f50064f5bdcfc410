import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { QUEUES, type IntakeJob, type IntakeReport } from '@rm/contracts';
import { embeddedDirectory } from '@rm/platforms';
import { ReportGuard, stamped, type Stamped } from '@rm/report-guard';
import { createNotifier, type Notifier } from '@rm/delivery';
import { createDeadlines, createLogger, openQueue, type Deadlines } from '@rm/runtime';
import { DEFAULT_POLICY } from '@rm/triage';
import type { Store } from '@rm/storage';
import { openSqliteStore } from '@rm/storage-sqlite';
import { slaStarter } from './start-sla.js';
import { storeReports, type IntakeDeps } from './store-report.js';

/**
 * storeReports on a real Redis (REDIS_URL) and a temporary SQLite file: each verdict branch of an
 * intake job. Every test has its own key prefix and file.
 */
let redis: Redis;
let dir: string;
let prefix: string;
let store: Store;
let guard: ReportGuard;
let notifier: Notifier;
let deadlines: Deadlines;
let deps: IntakeDeps;

beforeAll(() => {
  if (!process.env['REDIS_URL']) throw new Error('REDIS_URL is not set: these tests need a real Redis');
  redis = new Redis(process.env['REDIS_URL'], { maxRetriesPerRequest: null });
});
afterAll(() => redis.quit());

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rm-intake-'));
  prefix = `t${randomUUID().slice(0, 8)}`;
  store = openSqliteStore(join(dir, 'reports.db'));
  await store.addUser({ id: 'u1', name: 'griefer', displayName: 'The Griefer', avatar: null });
  guard = new ReportGuard(redis, prefix);
  notifier = createNotifier(redis, prefix, { NOTIFY_ATTEMPTS: 1, NOTIFY_BACKOFF_MS: 1000 });
  deadlines = createDeadlines(redis, prefix);
  deps = {
    saveReport: async (report) => (await store.saveReports([report]))[0]!,
    directory: embeddedDirectory(store),
    guard,
    notify: notifier.notify,
    startSla: slaStarter(deadlines, DEFAULT_POLICY),
    log: createLogger('intake-test', 'silent'),
  };
});
afterEach(async () => {
  await notifier.close();
  await deadlines.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

let seq = 0;
function report(reporterId: string, over: Partial<IntakeReport> = {}): IntakeReport {
  return {
    reportId: `rep-${++seq}-${randomUUID()}`,
    receivedAt: 1_000 + seq,
    userId: 'u1',
    reporter: { id: reporterId, platform: 'gameplatform' },
    answers: [{ questionId: 'q1', answer: 'aimbot' }],
    evidence: [],
    keyId: 'key-1',
    user: { name: 'griefer', displayName: 'The Griefer', avatar: null },
    ...over,
  };
}

const check = (r: IntakeReport): Stamped =>
  stamped({ keyId: r.keyId, rateLimit: 0, reporterId: r.reporter.id, reporterPlatform: r.reporter.platform, userId: r.userId, maxPerDay: 10 });

/** A job as a standalone gateway sends it: its reservations recorded under its verdicts key. */
async function reservedJob(reports: IntakeReport[]): Promise<IntakeJob> {
  const verdictsKey = guard.verdictsKey(reports[0]!.reportId);
  await guard.reserveRecorded(redis, reports.map(check), verdictsKey);
  return { reports, verdictsKey };
}

const storedIds = async () => (await store.listReportsByUser('u1', { offset: 0, limit: 100 })).reports.map((r) => r.id).sort();
const queuedNotifications = async () => (await openQueue('notifications', redis, prefix).getJobs(['wait', 'delayed'])).map((j) => j.data.kind as string);

describe('storeReports', () => {
  it('a job without verdicts (a Redis Cluster gateway reserved for each): stores every report, the first opening the case', async () => {
    const reports = [report('a'), report('b')];
    const saved = await storeReports(deps, { reports });
    expect(saved.map((s) => [s.reportId, s.created, s.openedCase])).toEqual([
      [reports[0]!.reportId, true, true],
      [reports[1]!.reportId, true, false],
    ]);
    expect(await storedIds()).toEqual(reports.map((r) => r.reportId).sort());
    expect((await queuedNotifications()).sort()).toEqual(['case.opened']);
    // The Redis view knows the case's reporters now (a platform and an id each).
    expect(await guard.check(check(report('a')))).toEqual({ ok: false, refusal: 'duplicate' });
  });

  it('a job with verdicts: stores only the reports they reserved for', async () => {
    const reports = [report('a'), report('a'), report('b')];
    const job = await reservedJob(reports);
    const saved = await storeReports(deps, job);
    expect(saved.map((s) => s.reportId)).toEqual([reports[0]!.reportId, reports[2]!.reportId]);
    expect(await storedIds()).toEqual([reports[0]!.reportId, reports[2]!.reportId].sort());
  });

  it('verdicts never recorded (the reservations failed, every caller was told to retry): stores nothing', async () => {
    const reports = [report('a')];
    expect(await storeReports(deps, { reports, verdictsKey: guard.verdictsKey(reports[0]!.reportId) })).toEqual([]);
    expect(await storedIds()).toEqual([]);
  });

  it('verdicts abandoned by a gateway that could not confirm them: stores nothing, and nothing stays reserved', async () => {
    const reports = [report('a')];
    const job = await reservedJob(reports);
    expect(await guard.abandonRecorded(redis, reports.map(check), job.verdictsKey!)).toBeNull();
    expect(await storeReports(deps, job)).toEqual([]);
    expect(await storedIds()).toEqual([]);
    expect(await guard.check(check(report('a')))).toEqual({ ok: true });
  });

  it('a redelivered job stores nothing twice, and its taken verdicts can no longer be abandoned', async () => {
    const reports = [report('a')];
    const job = await reservedJob(reports);
    await storeReports(deps, job);
    expect(await storeReports(deps, job)).toEqual([expect.objectContaining({ reportId: reports[0]!.reportId, created: false })]);
    expect(await guard.abandonRecorded(redis, reports.map(check), job.verdictsKey!)).toEqual([{ ok: true, appended: false }]);
    expect(await storedIds()).toEqual([reports[0]!.reportId]);
  });

  it('stores the user as the gateway found them, without the directory', async () => {
    const unknownToDirectory = report('a', { userId: 'u-gone', user: { name: 'kept', displayName: 'Kept Name', avatar: 'https://a/1.png' } });
    await storeReports(deps, { reports: [unknownToDirectory] });
    expect((await store.getReport(unknownToDirectory.reportId))!.user).toEqual({ name: 'kept', displayName: 'Kept Name', avatar: 'https://a/1.png' });
  });

  it('a job queued by an older gateway (`verdicts`, no user in the reports) is read and stored', async () => {
    const { user: _dropped, ...older } = report('a');
    const verdictsKey = guard.verdictsKey(older.reportId);
    await guard.reserveRecorded(redis, [check(older as IntakeReport)], verdictsKey);
    const job = QUEUES.intake.payload.parse({ reports: [older], verdicts: verdictsKey });
    expect(job.verdictsKey).toBe(verdictsKey);
    expect(await storeReports(deps, job)).toEqual([expect.objectContaining({ reportId: older.reportId, created: true })]);
    // Named from the directory, as before.
    expect((await store.getReport(older.reportId))!.user.displayName).toBe('The Griefer');
  });
});
