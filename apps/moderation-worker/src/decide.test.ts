import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDeadlines, createRedis, openQueue, type Deadlines, type Redis } from '@rm/runtime';
import { DEFAULT_POLICY, queueSettingsOf } from '@rm/triage';
import { createNotifier, EffectRelay, effectHandlers, type Notifier } from '@rm/delivery';
import { createChatPlatform, markSuperseded, supersededText, type ChatPlatform } from '@rm/platforms';
import { ReportGuard, UserStateSync } from '@rm/report-guard';
import type { NewReport, Store } from '@rm/storage';
import { openSqliteStore } from '@rm/storage-sqlite';
import type { DecisionJob } from '@rm/contracts';
import type { Queue } from 'bullmq';
import { decide } from './decide.js';
import type { DecideDeps } from './deps.js';
import { scheduleUnlessMoot } from './schedule-deadlines.js';

// The decision use case on a real Redis (REDIS_URL) and a temporary SQLite file: no mocks. Each
// test has its own key prefix and store.
let redis: Redis;
let dir: string;
beforeAll(() => {
  if (!process.env.REDIS_URL) throw new Error('REDIS_URL is not set: these tests need a real Redis');
  redis = createRedis({ REDIS_URL: process.env.REDIS_URL });
  dir = mkdtempSync(join(tmpdir(), 'rm-decide-'));
});
afterAll(async () => {
  await redis?.quit();
  rmSync(dir, { recursive: true, force: true });
});

let store: Store;
let prefix: string;
let notifier: Notifier;
let notifications: Queue;
let sanctionsQueue: Queue;
let guard: ReportGuard;
let deadlines: Deadlines;
let deadlinesQueue: Queue;
let deps: DecideDeps;
/** The embedded chat recorder on the test's store. */
let chat: ChatPlatform;
/** As WebhookFlag answers: whether a notification worker with a webhook ever started. */
let webhookConfigured: boolean;

/** The relay as main.ts wires it, over the given Redis connection for notifications. */
function relayOver(connection: Redis, n: Notifier): EffectRelay {
  return new EffectRelay({
    store,
    handlers: effectHandlers({
      store,
      userSync: new UserStateSync(connection, prefix),
      notify: n.notify,
      webhookConfigured: async () => webhookConfigured,
      scheduleDeadline: (j, dueAt) => scheduleUnlessMoot(store, deadlines, j, dueAt),
      markSuperseded: (caseId, previous) => markSuperseded(chat, store, caseId, previous),
      scheduleExpiry: async (sanctionId, expiresAt) => {
        await sanctionsQueue.add('expire', { kind: 'expire', sanctionId }, { jobId: `expire-${sanctionId}`, delay: Math.max(0, expiresAt - Date.now()) });
      },
    }),
  });
}

beforeEach(async () => {
  prefix = `decide-test-${randomUUID()}`;
  webhookConfigured = true;
  store = openSqliteStore(join(dir, `${prefix}.db`));
  notifier = createNotifier(redis, prefix, { NOTIFY_ATTEMPTS: 3, NOTIFY_BACKOFF_MS: 100 });
  notifications = openQueue('notifications', redis, prefix);
  sanctionsQueue = openQueue('sanctions', redis, prefix);
  guard = new ReportGuard(redis, prefix);
  deadlines = createDeadlines(redis, prefix);
  deadlinesQueue = openQueue('deadlines', redis, prefix);
  chat = createChatPlatform({ CHAT_API_URL: undefined, CHAT_TOKEN: undefined, PLATFORM_TIMEOUT_MS: 1000 } as never, store);
  deps = { store, deadlines, policy: queueSettingsOf(DEFAULT_POLICY), triagePolicy: DEFAULT_POLICY, chat, relay: relayOver(redis, notifier), settings: { hideUsername: false, reportChannel: 'reports' } };
  await store.addModerator({ id: 'm1', username: 'alice', createdAt: 1 });
  await store.addModerator({ id: 'm2', username: 'bob', createdAt: 1 });
});
afterEach(async () => {
  await notifier.close();
  await deadlines.close();
  await notifications.obliterate({ force: true });
  await sanctionsQueue.obliterate({ force: true });
  await deadlinesQueue.obliterate({ force: true });
  await notifications.close();
  await sanctionsQueue.close();
  await deadlinesQueue.close();
  await store.close();
});

function report(id: string, userId: string, reporterId: string): NewReport {
  return {
    id,
    userId,
    reporterId,
    reporterPlatform: 'gameplatform',
    reportType: null,
    answers: [{ questionId: 'q1', answer: 'aimbot' }],
    evidence: [{ url: 'https://clips.example/1', type: 'url' }],
    receivedAt: Date.now(),
    user: { name: `player${userId}`, displayName: `Player ${userId}`, avatar: null },
  };
}

/** A stored report (its reporter also marked in Redis, as a submit does); returns the report id. */
async function stored(userId: string, reporterId: string): Promise<string> {
  const id = randomUUID();
  expect(await guard.reserve({ keyId: 'k', rateLimit: 0, reporterId, reporterPlatform: 'gameplatform', userId, maxPerDay: 100 })).toMatchObject({ ok: true });
  await store.saveReports([report(id, userId, reporterId)]);
  return id;
}

const job = (action: DecisionJob['action'], reportId: string, moderatorId = 'm1', extra: Partial<DecisionJob> = {}): DecisionJob =>
  ({ action, decisionId: randomUUID(), reportId, moderatorId, ...(action === 'unclaim' && { bypassClaimCheck: false }), ...(action === 'dismiss' && { dm: false }), ...extra }) as DecisionJob;

describe('decide', () => {
  it('race loop: decisions racing on one case are applied one at a time; exactly one approval or dismissal wins', async () => {
    for (let round = 0; round < 10; round++) {
      const userId = `race-${round}`;
      const reportId = await stored(userId, `r-${round}`);
      expect(await decide(deps, job('claim', reportId))).toMatchObject({ ok: true });
      const [a, b] = await Promise.all([decide(deps, job('approve', reportId)), decide(deps, job('dismiss', reportId))]);
      expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
      const refused = (a.ok ? b : a) as Extract<typeof a, { ok: false }>;
      expect(refused.error.code).toBe('INVALID_STATE');
      const history = await store.caseHistory((await store.getReport(reportId))!.caseId);
      expect(history.map((e) => e.action)).toEqual(['claim', a.ok ? 'approve' : 'dismiss']);
      expect((await store.sanctionsOfUser(userId)).length).toBe(a.ok ? 1 : 0);
      expect(await store.isBanned(userId)).toBe(a.ok);
    }
    // Two claims at once by two moderators: one claims, the other is told who did.
    const reportId = await stored('race-claim', 'r-claim');
    const answers = await Promise.all([decide(deps, job('claim', reportId, 'm1')), decide(deps, job('claim', reportId, 'm2'))]);
    expect(answers.filter((x) => x.ok)).toHaveLength(1);
  });

  it('without a webhook configured anywhere, an approval and its undo queue no webhook or empty deliveries job; the undo marks its superseded message itself', async () => {
    webhookConfigured = false;
    const reportId = await stored('u-nowebhook', 'r1');
    const caseId = (await store.getReport(reportId))!.caseId;
    // The case's message as the notification worker posts it.
    const first = await chat.post('reports', { kind: 'case.opened', content: 'Case: 1 report(s)', dedupeKey: 'first' });
    await store.setCaseMessage({ caseId, channel: 'reports', messageId: first.id, updatedAt: Date.now() });
    const approval = job('approve', reportId);
    await decide(deps, approval);
    const undo = job('undo', reportId);
    const undone = await decide(deps, undo);
    await deps.relay.idle();
    expect(await store.pendingEffectsOf(approval.decisionId)).toEqual([]);
    // Only the reopened case's SLA check waits, for its time.
    expect((await store.pendingEffectsOf(undo.decisionId)).map((e) => e.kind)).toEqual(['deadline']);
    const kinds = (await notifications.getJobs(['waiting', 'delayed', 'prioritized'])).map((j) => j.data.kind).sort();
    // The reporter is on the game platform: the approval's DM has no one to go to, nor the undo's.
    expect(kinds).toEqual(['case.sync']);
    const newMessageId = (undone as Extract<typeof undone, { action: 'undo' }>).data.newMessageId;
    expect((await store.getCaseMessage(caseId))?.messageId).toBe(newMessageId);
    expect((await store.listMessages(10)).find((m) => m.id === first.id)?.content).toBe(supersededText(newMessageId));
  });

  it('redelivery: the same approval twice answers the same, with one sanction, one feed event, each effect once', async () => {
    const reportId = await stored('u-redeliver', 'r1');
    await decide(deps, job('claim', reportId));
    const approval = job('approve', reportId, 'm1', { durationMs: 60_000, sanctionReason: 'aimbot' } as Partial<DecisionJob>);
    const first = await decide(deps, approval);
    // The answer waits for the player's Redis view: a check right after it sees the ban.
    expect(await guard.check({ keyId: 'k', rateLimit: 0, reporterId: 'anyone', reporterPlatform: 'gameplatform', userId: 'u-redeliver', maxPerDay: 100 })).toEqual({ ok: false, refusal: 'banned' });
    const second = await decide(deps, approval);
    // The notifications, webhook and expiry follow the answer.
    await deps.relay.idle();
    expect(first).toMatchObject({ ok: true, action: 'approve' });
    expect(second).toEqual(first);
    const sanctions = await store.sanctionsOfUser('u-redeliver');
    expect(sanctions).toHaveLength(1);
    expect(sanctions[0]).toMatchObject({ id: approval.decisionId, reason: 'aimbot', state: 'active' });
    expect(sanctions[0]!.expiresAt! - sanctions[0]!.createdAt).toBe(60_000);
    expect((await store.sanctionFeed(0, 10)).map((e) => e.type)).toEqual(['sanction.created']);
    expect(await store.pendingEffectsOf(approval.decisionId)).toEqual([]);
    const jobs = await notifications.getJobs(['waiting', 'delayed', 'prioritized']);
    const ofApproval = jobs.filter((j) => j.data.decisionId === approval.decisionId);
    expect(ofApproval.map((j) => j.data.kind)).toEqual(['case.approved']);
    // The approval's sync of the case's message is the claim's, still waiting: one for both.
    expect(jobs.filter((j) => j.data.kind === 'case.sync' && j.data.caseId === ofApproval[0]!.data.caseId)).toHaveLength(1);
    expect(jobs.filter((j) => j.data.kind === 'sanction.webhook')).toHaveLength(1);
    expect(await sanctionsQueue.getJob(`expire-${approval.decisionId}`)).toBeDefined();
  });

  it("a dismissal's Redis sync keeps the mark of a report accepted meanwhile, and frees the decided case's reporters", async () => {
    const reportId = await stored('u-mark', 'decided-reporter');
    await decide(deps, job('claim', reportId));
    // Accepted by a gateway (marked in Redis) but not stored yet when the decision is applied.
    expect(await guard.reserve({ keyId: 'k', rateLimit: 0, reporterId: 'in-flight', reporterPlatform: 'gameplatform', userId: 'u-mark', maxPerDay: 100 })).toMatchObject({ ok: true });
    expect(await decide(deps, job('dismiss', reportId))).toMatchObject({ ok: true });
    const probe = (reporterId: string) => guard.check({ keyId: 'k', rateLimit: 0, reporterId, reporterPlatform: 'gameplatform', userId: 'u-mark', maxPerDay: 100 });
    expect(await probe('in-flight')).toEqual({ ok: false, refusal: 'duplicate' });
    expect(await probe('decided-reporter')).toEqual({ ok: true });
  });

  it('deadlines and expiries wait in the outbox until a minute before they are due; one made moot by then schedules no job', async () => {
    // Due 61 s after the decision: each waits about a second.
    const policy = { ...DEFAULT_POLICY, claimTtl: 'PT61S', categories: Object.fromEntries(Object.entries(DEFAULT_POLICY.categories).map(([k, c]) => [k, { ...c, sla: 'PT61S' }])) };
    deps = { ...deps, policy: queueSettingsOf(policy), triagePolicy: policy };
    const temporary = { durationMs: 61_000 } as Partial<DecisionJob>;
    // Case a: every deadline made moot. The approval's sanction is lifted by the undo, the undo's
    // SLA check met by the dismissal, and both claims followed by a decision.
    const a = await stored('u-moot-a', 'r1');
    const [claimA, approveA, undoA, reclaimA] = [job('claim', a), job('approve', a, 'm1', temporary), job('undo', a), job('claim', a)];
    for (const d of [claimA, approveA, undoA, reclaimA, job('dismiss', a)]) expect(await decide(deps, d)).toMatchObject({ ok: true });
    // Case b: a claim left alone; case c: a temporary sanction left alone.
    const claimB = job('claim', await stored('u-moot-b', 'r1'));
    const approveC = job('approve', await stored('u-moot-c', 'r1'), 'm1', temporary);
    for (const d of [claimB, approveC]) expect(await decide(deps, d)).toMatchObject({ ok: true });
    await deps.relay.idle();
    // Nothing scheduled yet: every deadline and expiry waits in the outbox.
    expect(await deadlinesQueue.getJobCounts('delayed', 'waiting')).toEqual({ delayed: 0, waiting: 0 });
    expect(await sanctionsQueue.getJob(`expire-${approveC.decisionId}`)).toBeUndefined();
    expect(await store.pendingEffectsOf(claimB.decisionId)).toHaveLength(1);

    await new Promise((r) => setTimeout(r, 1_200));
    await deps.relay.sweep(0);
    expect(await store.pendingEffects(Date.now(), 100)).toEqual([]);
    const caseA = (await store.getReport(a))!.caseId;
    const scheduled = (await deadlinesQueue.getJobs(['delayed', 'waiting'])).map((j) => j.id);
    expect(scheduled).toEqual([`claim-expiry-${claimB.decisionId}`]);
    expect(scheduled).not.toContain(`sla-${caseA}-${undoA.decisionId}`);
    const expiry = await deadlinesQueue.getJob(`claim-expiry-${claimB.decisionId}`);
    // Still due on time: a minute off, less the second waited.
    expect(expiry!.opts.delay).toBeGreaterThan(55_000);
    expect(await sanctionsQueue.getJob(`expire-${approveC.decisionId}`)).toBeDefined();
    expect(await sanctionsQueue.getJob(`expire-${approveA.decisionId}`)).toBeUndefined();
  });

  it('a follow-up that fails (its Redis connection killed) leaves the decision applied and answered; the sweep carries it out once', async () => {
    const reportId = await stored('u-fail', 'r1');
    await decide(deps, job('claim', reportId));
    // The claim's own effects done, so the sweep below finds only the approval's.
    await deps.relay.idle();
    const dead = createRedis({ REDIS_URL: process.env.REDIS_URL! });
    const deadNotifier = createNotifier(dead, prefix, { NOTIFY_ATTEMPTS: 3, NOTIFY_BACKOFF_MS: 100 });
    dead.disconnect();
    const approval = job('approve', reportId);
    const failing = relayOver(redis, deadNotifier);
    const answer = await decide({ ...deps, relay: failing }, approval);
    expect(answer).toMatchObject({ ok: true, action: 'approve' });
    expect(await store.isBanned('u-fail')).toBe(true);
    await failing.idle();
    const pending = await store.pendingEffectsOf(approval.decisionId);
    // The sync of the case's message, the approval's deliveries, the sanction's webhook.
    expect(pending.map((e) => e.kind)).toEqual(['notify', 'notify', 'sanction.webhook']);

    expect(await deps.relay.sweep(0)).toBe(1);
    expect(await store.pendingEffectsOf(approval.decisionId)).toEqual([]);
    const jobs = await notifications.getJobs(['waiting', 'delayed', 'prioritized']);
    const ofApproval = jobs.filter((j) => j.data.decisionId === approval.decisionId);
    expect(ofApproval.map((j) => j.data.kind)).toEqual(['case.approved']);
    // The approval's sync of the case's message is the claim's, still waiting: one for both.
    expect(jobs.filter((j) => j.data.kind === 'case.sync' && j.data.caseId === ofApproval[0]!.data.caseId)).toHaveLength(1);
    await deadNotifier.close().catch(() => undefined);
  });
});
