import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobPath } from '@rm/evidence';
import { commonConfig, createRedis, loadConfig, type Redis } from '@rm/runtime';
import { FakePlatform } from './fake-platform.js';
import { APPS, runNode, System, type Key } from './harness.js';
import { redisDump as dumpRedis } from './redis-dump.js';
import { TEST_POLICY, writePolicy } from './triage-policy.js';

// The retention sweep end to end (docs/privacy.md#retention): players' data planted through the
// public API, names from an HTTP user directory and case messages on an HTTP chat platform (both
// the fake), then the sweep with every duration at zero, run by the evidence worker's job. Then the
// SQLite file and every Redis key of the system are searched for what should be gone; a hold keeps
// what it holds, an active ban stays enforceable, the transparency figures stay as they were.

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const ZERO = { directoryNames: 'P0D', reportText: 'P0D', reporterIdentity: 'P0D', caseMessages: 'P0D', dismissedCases: 'P0D', appealStatements: 'P0D', auditEntries: 'P0D' };

// Distinct strings, so a search finds only what this test planted. Player 1: a dismissed case.
const P1 = { id: '88301', name: 'RetNameQvx', display: 'Ret Display Wmz', text: 'dismissed words Jk4r in ranked', reporter: 'ret-rep-88301' };
// Player 2: approved into a permanent ban (kept while it runs).
const P2 = { id: '88302', name: 'BannedNameTyu', display: 'Banned Display Ghj', text: 'banned words Zx8c', reporter: 'ret-rep-88302' };
// Player 3: approved, appealed, upheld, then lifted by hand: all of it due.
const P3 = { id: '88303', name: 'LiftedNamePlk', display: 'Lifted Display Mnb', text: 'lifted words Rt5y', reporter: 'ret-rep-88303' };
const P3_REASON = 'approve reason Vb7n';
const P3_APPEAL = 'appeal statement Cx2w';
const P3_REVIEW = 'reviewer words Lo9p';
const P3_LIFT = 'lift words Ew3q';
// Player 4: dismissed, under a legal hold.
const P4 = { id: '88304', name: 'HeldNameAsd', display: 'Held Display Fgh', text: 'held words Ui6o', reporter: 'ret-rep-88304' };
const GONE = [P1.name, P1.display, P1.text, P3.name, P3.display, P3.text, P3_REASON, P3_APPEAL, P3_REVIEW, P3_LIFT];

let fake: FakePlatform;
let clips: http.Server;
let clipPort: number;
let sys: System;
let admin: Key;
let redis: Redis;
let longPolicy: string;

beforeAll(async () => {
  fake = await FakePlatform.start();
  for (const p of [P1, P2, P3, P4]) fake.addUser({ id: Number(p.id), name: p.name, displayName: p.display, avatar: null });
  clips = http.createServer((req, res) => {
    const clip = /^\/clip-(\d+)\.png$/.exec(req.url ?? '');
    if (clip) res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.concat([PNG, Buffer.from(`retention-${clip[1]}`)]));
    else res.writeHead(404).end();
  });
  await new Promise<void>((done) => clips.listen(0, '127.0.0.1', done));
  clipPort = (clips.address() as AddressInfo).port;
  longPolicy = writePolicy({ ...TEST_POLICY });
  sys = await System.start({
    env: {
      // The system runs with every retention at zero: the sweep takes whatever nothing keeps.
      TRIAGE_POLICY: writePolicy({ ...TEST_POLICY, retention: ZERO }),
      USER_DIRECTORY_URL: `${fake.url}/directory`,
      // The directory's answers (names) are cached in Redis this long: expired before the search.
      USER_CACHE_TTL_MS: '1000',
      CHAT_API_URL: `${fake.url}/chat`,
      CHAT_TOKEN: 'retention-chat-token',
      CASE_SYNC_DELAY_MS: '0',
      MAX_REPORTS_PER_DAY: '1000',
      EVIDENCE_FETCH_ALLOW: `127.0.0.1:${clipPort}`,
      EVIDENCE_TOKEN_SECRET: 'e2e-retention-token-secret-0123456789abcdef',
    },
  });
  admin = await sys.createKey(['--admin']);
  await sys.addModerator('m1', 'alice');
  await sys.addModerator('m2', 'bob');
  redis = createRedis(loadConfig(commonConfig, sys.env));
}, 120_000);
afterAll(async () => {
  redis?.disconnect();
  await sys?.stop();
  await fake?.stop();
  clips?.closeAllConnections();
  await new Promise((done) => clips?.close(done));
});

/** Every key of this system with its value as text. */
const redisDump = () => dumpRedis(redis, sys.prefix);

/** The key of a dump (key and value on alternate lines) whose value holds `text`. */
const keyHolding = (dump: string, text: string): string => {
  const lines = dump.split('\n');
  const at = lines.findIndex((line, i) => i % 2 === 1 && line.includes(text));
  return at < 0 ? 'in a key name' : lines[at - 1]!;
};

/** The SQLite file and its write-ahead log, as bytes read as text. */
function storeBytes(): string {
  const file = join(sys.dataDir, 'reports.db');
  return [file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f).toString('latin1')).join('');
}

/** A report about `p` (a category, free text, a kept clip), stored with its evidence kept: its id and case. */
async function report(p: typeof P1): Promise<{ reportId: string; caseId: string }> {
  const res = await sys.post('/v1/reports/new', admin.auth, {
    userId: p.id,
    answers: [
      { questionId: 'category', answer: 'cheating' },
      { questionId: 'details', answer: p.text },
    ],
    evidence: [{ url: `http://127.0.0.1:${clipPort}/clip-${p.id}.png`, type: 'url', createEvidence: true }],
    reporter: { id: p.reporter, platform: 'gameplatform' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const reportId = res.body.id as string;
  let caseId = '';
  await sys.waitFor(
    async () => {
      const c = (await sys.get('/v1/cases?limit=100', admin.auth)).body.cases?.find((x: any) => x.userId === p.id);
      if (!c) return false;
      caseId = c.caseId;
      const r = (await sys.get(`/v1/cases/${caseId}`, admin.auth)).body.case?.reports?.find((x: any) => x.id === reportId);
      return r?.evidenceItems?.[0]?.state === 'captured';
    },
    30_000,
    `report ${reportId} stored with its evidence kept`,
  );
  return { reportId, caseId };
}

const decide = async (verb: 'approve' | 'dismiss', reportId: string, extra: Record<string, unknown> = {}) => {
  const res = await sys.post(`/v1/reports/${reportId}/${verb}`, admin.auth, { moderator: { id: 'm1' }, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const transparency = async () => (await sys.get('/v1/transparency?from=2000-01-01&to=2100-01-01', admin.auth)).body;
const caseView = async (caseId: string) => (await sys.get(`/v1/cases/${caseId}`, admin.auth)).body.case;
/** The case's message on the fake chat platform, as it now reads. */
const messageOf = (name: string) => [...fake.messages.values()].find((m) => m.content.includes(name));

describe('the retention sweep', () => {
  it('erases what is past its time on the store, Redis, the chat platform and the evidence store; a hold and an active ban keep theirs; figures unchanged', async () => {
    const one = await report(P1);
    await decide('dismiss', one.reportId);
    const two = await report(P2);
    await decide('approve', two.reportId, { reason: 'banned for good' });
    const three = await report(P3);
    await decide('approve', three.reportId, { reason: P3_REASON });
    const sanction3 = (await sys.get(`/v1/sanctions/${P3.id}`, admin.auth)).body.sanctions[0].id as string;
    const appeal = await sys.post('/v1/appeals', admin.auth, { sanctionId: sanction3, userId: P3.id, statement: P3_APPEAL });
    expect(appeal.status, JSON.stringify(appeal.body)).toBe(200);
    const upheld = await sys.post(`/v1/appeals/${appeal.body.appeal.id}/uphold`, admin.auth, { moderator: { id: 'm2' }, reason: P3_REVIEW });
    expect(upheld.status, JSON.stringify(upheld.body)).toBe(200);
    expect((await sys.cli(['sanctions', 'lift', sanction3, '--moderator', 'm1', '--reason', P3_LIFT])).code).toBe(0);
    const four = await report(P4);
    await decide('dismiss', four.reportId);
    const hold = await sys.cli(['privacy', 'hold', '--user', P4.id, '--reason', 'police request 21', '--json']);
    expect(hold.code, hold.stderr).toBe(0);
    const holdId = JSON.parse(hold.stdout).id as string;
    // Every case message posted and showing its decision.
    await sys.waitFor(async () => [P1, P2, P3, P4].every((p) => messageOf(p.name) !== undefined && !messageOf(p.name)!.content.includes('open, unclaimed')), 20_000, 'the case messages');
    const blob1 = join(sys.dataDir, 'evidence', blobPath((await caseView(one.caseId)).reports[0].evidenceItems[0].sha256));
    expect(existsSync(blob1)).toBe(true);
    const before = await transparency();

    // Not yet: with the policy's default durations (a year for text), nothing is due.
    const early = await sys.cli(['privacy', 'sweep', '--json'], { TRIAGE_POLICY: longPolicy });
    expect(early.code, early.stderr).toBe(0);
    for (const [kind, k] of Object.entries(JSON.parse(early.stdout).kinds) as [string, any][]) expect(k.erased, kind).toBe(0);
    expect(early.stderr).toContain('privacy sweep: dismissedCases 0 examined, 0 erased');

    // A dry run says what the sweep will do, and changes nothing.
    const dry = await sys.cli(['privacy', 'sweep', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/dismissedCases\s+P0D\s+\S+\s+2\s+1\s+1 legal_hold/);
    expect(dry.stdout).toMatch(/reportText\s+P0D\s+\S+\s+4\s+2\s+1 active_sanction, 1 legal_hold/);
    expect(storeBytes()).toContain(P1.text);

    // The evidence worker's daily job, run now.
    const job = await sys.queue('evidence').add('retention', { kind: 'retention' }, { jobId: 'retention-e2e' });
    await sys.waitFor(async () => (await job.getState()) === 'completed' || (await job.getState()) === 'failed', 60_000, 'the retention job');
    const done = (await sys.queue('evidence').getJob('retention-e2e'))!;
    expect(await done.getState(), done.failedReason).toBe('completed');
    expect(done.returnvalue).toMatchObject({
      erased: { directoryNames: 2, reportText: 2, reporterIdentity: 2, dismissedCases: 1, appealStatements: 1 },
      kept: { directoryNames: 2, dismissedCases: 1, appealStatements: 0 },
      evidenceFiles: 1,
    });
    expect(done.returnvalue.chatMessages).toBeGreaterThanOrEqual(2);

    // Gone from the file, its log, every Redis key of the system, the chat platform and the evidence store.
    // The directory's answers, which the case views above cached again, live USER_CACHE_TTL_MS (1 s here).
    const cached = (p: typeof P1) => redis.exists(`${sys.prefix}:directory:user:${p.id}`);
    await sys.waitFor(async () => (await cached(P1)) + (await cached(P3)) === 0, 10_000, 'the cached directory answers expired');
    const bytes = storeBytes();
    const dump = await redisDump();
    for (const secret of GONE) expect(bytes.includes(secret), `the SQLite file still holds ${secret}`).toBe(false);
    for (const secret of GONE) expect(dump.includes(secret), `Redis still holds ${secret} (${keyHolding(dump, secret)})`).toBe(false);
    expect(messageOf(P1.name)).toBeUndefined();
    expect(messageOf(P3.name)).toBeUndefined();
    expect([...fake.messages.values()].filter((m) => m.content.includes('removed under the retention policy'))).toHaveLength(2);
    expect(existsSync(blob1)).toBe(false);

    // The dismissed case's player and reporter are pseudonyms; the approved case keeps its player's id.
    const gone = await caseView(one.caseId);
    expect(gone.userId).toMatch(/^erased-/);
    expect(gone.reports[0].reporter.id).toMatch(/^erased-/);
    expect((await sys.get(`/v1/reports/${P1.id}`, admin.auth)).body).toMatchObject({ count: 0, reports: [] });
    const lifted = await caseView(three.caseId);
    expect(lifted).toMatchObject({ userId: P3.id });
    expect(lifted.reports[0].answers).toEqual([
      { questionId: 'category', answer: 'cheating' },
      { questionId: 'details', answer: '[erased]' },
    ]);
    expect(lifted.reports[0].reporter.id).toMatch(/^erased-/);

    // Kept: the active ban's case and the held player's, whole; the ban still enforced.
    expect(bytes).toContain(P2.text);
    expect(bytes).toContain(P4.text);
    expect(messageOf(P2.name)).toBeDefined();
    expect(messageOf(P4.name)).toBeDefined();
    expect((await sys.get(`/v1/sanctions/${P2.id}`, admin.auth)).body).toMatchObject({ banned: true });
    expect(await transparency()).toEqual(before);

    // Released, the hold no longer keeps the held player's case: the next sweep takes it.
    expect((await sys.cli(['privacy', 'release', holdId, '--reason', 'closed'])).code).toBe(0);
    const after = await sys.cli(['privacy', 'sweep', '--json']);
    expect(after.code, after.stderr).toBe(0);
    expect(JSON.parse(after.stdout).kinds.dismissedCases).toMatchObject({ examined: 1, erased: 1 });
    expect(storeBytes().includes(P4.text)).toBe(false);
    expect(messageOf(P4.name)).toBeUndefined();
    expect((await sys.get(`/v1/sanctions/${P2.id}`, admin.auth)).body).toMatchObject({ banned: true });
    expect(await transparency()).toEqual(before);

    // An erasure leaves a player's id where a sanction may need it; once none does (P3's was
    // lifted: the ladder does not count it), the next sweep ends it on their rows.
    expect((await sys.cli(['privacy', 'erase', '--user', P3.id])).code).toBe(0);
    expect((await sys.get(`/v1/reports/${P3.id}`, admin.auth)).body).toMatchObject({ count: 1 });
    const ended = await sys.cli(['privacy', 'sweep', '--json']);
    expect(JSON.parse(ended.stdout).kinds.erasedPlayers).toMatchObject({ examined: 1, erased: 1 });
    expect((await sys.get(`/v1/reports/${P3.id}`, admin.auth)).body).toMatchObject({ count: 0, reports: [] });
    expect((await sys.get(`/v1/sanctions/${P3.id}`, admin.auth)).body).toMatchObject({ banned: false, sanctions: [] });
    expect((await caseView(three.caseId)).userId).toMatch(/^erased-/);
    expect(await transparency()).toEqual(before);
  });

  it('refuses a policy with a bad retention at start, naming the field', async () => {
    const bad = writePolicy({ ...TEST_POLICY, retention: { reportText: 'a year' } });
    const worker = await runNode(APPS.evidence, [], { ...sys.env, TRIAGE_POLICY: bad });
    expect(worker.code).toBe(1);
    expect(worker.stderr).toMatch(/^evidence-worker: invalid configuration: TRIAGE_POLICY: retention\.reportText: must be an ISO 8601 duration/m);
    const cli = await sys.cli(['privacy', 'sweep', '--dry-run'], { TRIAGE_POLICY: bad });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/TRIAGE_POLICY: retention\.reportText: must be an ISO 8601 duration/);
  });
});
