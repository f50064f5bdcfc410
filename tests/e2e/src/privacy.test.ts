import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobPath } from '@rm/evidence';
import { commonConfig, createRedis, loadConfig, type Redis } from '@rm/runtime';
import { isErrorShape, System, type Key } from './harness.js';
import { redisDump as dumpRedis } from './redis-dump.js';

// A data subject's data planted through the public API (reports, a case, a ban, an appeal, evidence
// kept on disk), then export, erase and holds through the CLI and HTTP: afterwards the SQLite file
// and every Redis key of the system are searched for the erased names and texts (docs/privacy.md).

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
// Distinct strings, so a search for them finds only what this test planted.
const NAME = 'GriefLordZqx';
const DISPLAY = 'Grief Lord Vmw';
const TEXT = 'he used the wallhack Kxq7 in ranked';
const REASON = 'aimbot seen in clip Pwz3';
const APPEAL = 'I never cheated Hjy5';
const HELD_TEXT = 'threatened me in chat Bnv2';
const SECRETS = [NAME, DISPLAY, TEXT, REASON, APPEAL];

let server: http.Server;
let port: number;
let sys: System;
let admin: Key;
let redis: Redis;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    // Each player's clip its own bytes (a PNG with a tail): kept bytes are shared by hash.
    const clip = /^\/clip-(\d+)\.png$/.exec(req.url ?? '');
    if (clip) res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.concat([PNG, Buffer.from(clip[1]!)]));
    else res.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
  sys = await System.start({ env: { MAX_REPORTS_PER_DAY: '1000', EVIDENCE_FETCH_ALLOW: `127.0.0.1:${port}`, EVIDENCE_TOKEN_SECRET: 'e2e-privacy-token-secret-0123456789abcdef', CASE_SYNC_DELAY_MS: '0' } });
  admin = await sys.createKey(['--admin']);
  await sys.addModerator('m1', 'alice');
  redis = createRedis(loadConfig(commonConfig, sys.env));
});
afterAll(async () => {
  redis?.disconnect();
  await sys?.stop();
  server?.closeAllConnections();
  await new Promise((done) => server?.close(done));
});

/** Every key of this system with its value as text. */
const redisDump = () => dumpRedis(redis, sys.prefix);

/** The SQLite file and its write-ahead log, as bytes read as text. */
function storeBytes(): string {
  const file = join(sys.dataDir, 'reports.db');
  return [file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f).toString('latin1')).join('');
}

/** A player with a report (free text, kept evidence), approved into a ban with a reason, and an appeal. */
async function plant(userId: string, p: { name: string; display: string; text: string; reason: string; appeal: string }): Promise<{ reportId: string; caseId: string; sanctionId: string }> {
  await sys.addUser(userId, p.name, p.display);
  const res = await sys.post('/v1/reports/new', admin.auth, {
    userId,
    answers: [{ questionId: 'q1', answer: p.text }],
    evidence: [{ url: `http://127.0.0.1:${port}/clip-${userId}.png`, type: 'url', createEvidence: true }],
    reporter: { id: `rep-${userId}`, platform: 'gameplatform' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const reportId = res.body.id as string;
  let caseId = '';
  await sys.waitFor(async () => {
    const c = (await sys.get('/v1/cases?limit=100', admin.auth)).body.cases?.find((x: any) => x.userId === userId);
    if (!c) return false;
    caseId = c.caseId;
    const r = (await sys.get(`/v1/cases/${caseId}`, admin.auth)).body.case?.reports?.find((x: any) => x.id === reportId);
    return r?.evidenceItems?.[0]?.state === 'captured';
  }, 30_000, `report ${reportId} stored with its evidence kept`);
  const approved = await sys.post(`/v1/reports/${reportId}/approve`, admin.auth, { moderator: { id: 'm1' }, reason: p.reason });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  const sanctionId = (await sys.get(`/v1/sanctions/${userId}`, admin.auth)).body.sanctions[0].id as string;
  const appeal = await sys.post('/v1/appeals', admin.auth, { sanctionId, userId, statement: p.appeal });
  expect(appeal.status, JSON.stringify(appeal.body)).toBe(200);
  return { reportId, caseId, sanctionId };
}

const transparency = async () => (await sys.get('/v1/transparency?from=2000-01-01&to=2100-01-01', admin.auth)).body;

describe('privacy requests through the CLI', () => {
  it('exports every piece, erases what it should, keeps the ban enforceable and the figures unchanged; a hold keeps what it holds', async () => {
    const player = await plant('88001', { name: NAME, display: DISPLAY, text: TEXT, reason: REASON, appeal: APPEAL });
    const held = await plant('88002', { name: 'HeldNameRtq', display: 'Held Name Rtq', text: HELD_TEXT, reason: 'held reason Lkj8', appeal: 'held appeal Mnb9' });
    // The chat message of the case names the player until the erasure.
    await sys.waitFor(async () => (await sys.cli(['messages', 'list', '--json'])).stdout.includes(NAME), 15_000, 'the case message posted');

    const exported = await sys.cli(['privacy', 'export', '--user', '88001']);
    expect(exported.code, exported.stderr).toBe(0);
    const doc = JSON.parse(exported.stdout);
    const part = (name: string) => doc.parts.find((p: any) => p.part === name);
    expect(doc.subject).toEqual({ kind: 'player', userId: '88001' });
    for (const p of doc.parts) expect(p).toEqual(expect.objectContaining({ what: expect.any(String), why: expect.any(String), retention: expect.any(String) }));
    expect(part('directory_record').items).toEqual([{ id: '88001', name: NAME, displayName: DISPLAY, avatar: null }]);
    expect(part('reports').items.map((r: any) => [r.id, r.answers[0].answer, r.evidenceItems[0].state])).toEqual([[player.reportId, TEXT, 'captured']]);
    // Who reported the player is not theirs to know (GDPR Art. 15(4)).
    expect(part('reports').items[0]).toMatchObject({ reporterId: '[withheld]', reporterPlatform: '[withheld]' });
    expect(JSON.stringify(part('reports'))).not.toContain('rep-88001');
    expect(part('cases').items.map((c: any) => [c.case.id, c.history.map((e: any) => e.action)])).toEqual([[player.caseId, ['approve']]]);
    expect(part('sanctions').items.map((s: any) => [s.id, s.reason, s.state])).toEqual([[player.sanctionId, REASON, 'active']]);
    expect(part('appeals').items.map((a: any) => a.statement)).toEqual([APPEAL]);

    const sha256 = part('reports').items[0].evidenceItems[0].sha256 as string;
    const blob = join(sys.dataDir, 'evidence', blobPath(sha256));
    expect(existsSync(blob)).toBe(true);

    // A hold on the second player keeps all of theirs.
    const hold = await sys.cli(['privacy', 'hold', '--user', '88002', '--reason', 'police request 17', '--json']);
    expect(hold.code, hold.stderr).toBe(0);
    const holdId = JSON.parse(hold.stdout).id as string;
    // The held player's copy says a hold exists, not what it is for nor who placed it.
    const heldExport = JSON.parse((await sys.cli(['privacy', 'export', '--user', '88002'])).stdout);
    expect(heldExport.parts.find((p: any) => p.part === 'holds').items).toEqual([expect.objectContaining({ id: holdId, reason: '[withheld]', placedBy: '[withheld]' })]);
    expect(JSON.stringify(heldExport)).not.toContain('police request 17');
    const keptByHold = JSON.parse((await sys.cli(['privacy', 'erase', '--user', '88002', '--json'])).stdout);
    expect(keptByHold.erased).toMatchObject({ reports: 0, evidenceItems: 0, appeals: 0, sanctions: 0, directoryRecord: false });
    expect(keptByHold.kept.map((k: any) => [k.kind, k.reason, k.holdId])).toEqual(
      expect.arrayContaining([
        ['report', 'legal_hold', holdId],
        ['sanction', 'legal_hold', holdId],
        ['appeal', 'legal_hold', holdId],
        ['user', 'legal_hold', holdId],
      ]),
    );

    const before = await transparency();
    const dry = await sys.cli(['privacy', 'erase', '--user', '88001', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('would erase for player 88001: 1 report(s), 1 kept evidence item(s) (1 file(s)), 1 appeal(s), 1 sanction reason(s), the directory record');
    expect(storeBytes()).toContain(TEXT);

    const erased = await sys.cli(['privacy', 'erase', '--user', '88001', '--json']);
    expect(erased.code, erased.stderr).toBe(0);
    const answer = JSON.parse(erased.stdout);
    expect(answer.erased).toMatchObject({ reports: 1, evidenceItems: 1, evidenceFiles: 1, appeals: 1, sanctions: 1, directoryRecord: true, chatMessages: 1 });
    expect(answer.kept).toEqual([expect.objectContaining({ kind: 'sanction', id: player.sanctionId, reason: 'active_sanction' })]);

    // Nothing of it left: the file, its log, every Redis key of the system, the evidence bytes.
    const bytes = storeBytes();
    const dump = await redisDump();
    for (const secret of SECRETS) expect(bytes.includes(secret), `the SQLite file still holds ${secret}`).toBe(false);
    expect(bytes).toContain(HELD_TEXT); // the held player's
    for (const secret of SECRETS) expect(dump.includes(secret), `Redis still holds ${secret}`).toBe(false);
    expect(existsSync(blob)).toBe(false);

    // The ban still enforced; the figures unchanged; a second erasure changes nothing.
    expect((await sys.get('/v1/sanctions/88001', admin.auth)).body).toMatchObject({ banned: true });
    expect(await transparency()).toEqual(before);
    const again = JSON.parse((await sys.cli(['privacy', 'erase', '--user', '88001', '--json'])).stdout);
    expect(again.erased).toMatchObject({ reports: 0, evidenceItems: 0, appeals: 0, sanctions: 0, directoryRecord: false });

    // Released, the hold no longer keeps the second player's.
    expect((await sys.cli(['privacy', 'release', holdId, '--reason', 'closed'])).code).toBe(0);
    const after = JSON.parse((await sys.cli(['privacy', 'erase', '--user', '88002', '--json'])).stdout);
    expect(after.erased).toMatchObject({ reports: 1, appeals: 1, sanctions: 1, directoryRecord: true });
    expect(held.sanctionId).toBeTruthy();
  });

  it('refuses a bad request in one line', async () => {
    const none = await sys.cli(['privacy', 'erase']);
    expect(none.code).toBe(1);
    expect(none.stderr.trim().split('\n')).toEqual(['error: name exactly one of --user ID (a player) or --reporter PLATFORM:ID (a reporter)']);
    const badReporter = await sys.cli(['privacy', 'export', '--reporter', 'nocolon']);
    expect(badReporter.stderr.trim()).toBe('error: --reporter must be PLATFORM:ID (got nocolon)');
    const unknown = await sys.cli(['privacy', 'release', 'no-such-hold']);
    expect(unknown.stderr.trim()).toBe('error: no hold no-such-hold');
    const past = await sys.cli(['privacy', 'hold', '--case', 'c1', '--reason', 'x', '--until', '2001-01-01']);
    expect(past.stderr.trim()).toBe('error: until must be in the future');
    // A mistyped case or sanction would hold nothing: refused.
    for (const target of ['--case', '--sanction']) {
      const missing = await sys.cli(['privacy', 'hold', target, 'no-such-id', '--reason', 'x']);
      expect([missing.code, missing.stderr.trim()]).toEqual([1, `error: no ${target.slice(2)} no-such-id`]);
    }
    // An export that cannot be written is not made.
    const unwritable = await sys.cli(['privacy', 'export', '--user', '88001', '--out', '/nonexistent-dir/x.json']);
    expect([unwritable.code, unwritable.stderr.trim().split('\n')]).toEqual([1, [expect.stringMatching(/^error: cannot write \/nonexistent-dir\/x\.json: ENOENT/)]]);
  });
});

describe('privacy requests over HTTP', () => {
  it('needs privacy.manage; exports, erases a reporter, places and releases holds; mistakes are 400s in the error shape', async () => {
    const plain = await sys.createKey(['--permission', 'reports.view_reports']);
    const officer = await sys.createKey(['--permission', 'privacy.manage']);
    expect((await sys.post('/v1/privacy/exports', plain.auth, { userId: '1' })).status).toBe(403);

    await sys.addUser('88101', 'ReportedOne', 'Reported One');
    const res = await sys.post('/v1/reports/new', admin.auth, {
      userId: '88101',
      answers: [{ questionId: 'q1', answer: 'reporter words Qpl4' }],
      evidence: [
        { url: 'https://clips.example/reporter-link-Zt8', type: 'url' },
        // Kept by the evidence worker: its finished capture job names the link too.
        { url: `http://127.0.0.1:${port}/clip-88101.png?from=Zt9`, type: 'url', createEvidence: true },
      ],
      reporter: { id: 'snitch-88101', platform: 'gameplatform' },
    });
    expect(res.status).toBe(200);
    await sys.waitFor(async () => (await sys.get('/v1/reports/88101', admin.auth)).body.reports?.length === 1, 15_000, 'the report stored');
    const captured = async () => (await sys.queue('evidence').getJobs(['completed'], 0, 1000)).some((j) => JSON.stringify(j.data).includes('Zt9'));
    await sys.waitFor(captured, 15_000, 'the capture job finished');

    const subject = { platform: 'gameplatform', reporterId: 'snitch-88101' };
    const exported = await sys.post('/v1/privacy/exports', officer.auth, subject);
    expect(exported.status, JSON.stringify(exported.body)).toBe(200);
    expect(exported.body.parts.find((p: any) => p.part === 'reports').items.map((r: any) => r.answers[0].answer)).toEqual(['reporter words Qpl4']);

    const dry = await sys.post('/v1/privacy/erasures', officer.auth, { ...subject, dryRun: true });
    expect(dry.body).toMatchObject({ success: true, dryRun: true, erased: { reports: 1 } });
    const erased = await sys.post('/v1/privacy/erasures', officer.auth, subject);
    expect(erased.body).toMatchObject({ success: true, dryRun: false, erased: { reports: 1 }, kept: [] });
    const bytes = storeBytes();
    for (const secret of ['reporter words Qpl4', 'reporter-link-Zt8', 'snitch-88101']) expect(bytes.includes(secret), secret).toBe(false);
    // Redis too: the finished intake and capture jobs that held the report went with it.
    const dump = await redisDump();
    for (const secret of ['snitch-88101', 'reporter-link-Zt8', 'Zt9']) expect(dump.includes(secret), secret).toBe(false);
    expect((await sys.post('/v1/privacy/exports', officer.auth, subject)).body.parts.find((p: any) => p.part === 'reports').items).toEqual([]);

    const hold = await sys.post('/v1/privacy/holds', officer.auth, { target: { type: 'player', id: '88101' }, reason: 'court order 4' });
    expect(hold.status, JSON.stringify(hold.body)).toBe(200);
    expect(hold.body.hold).toMatchObject({ target: { type: 'player', id: '88101' }, reason: 'court order 4', until: null, placedBy: `key:${officer.key}`, releasedAt: null });
    const kept = await sys.post('/v1/privacy/erasures', officer.auth, { userId: '88101' });
    expect(kept.body.kept).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'report', reason: 'legal_hold', holdId: hold.body.hold.id })]));
    const released = await sys.post(`/v1/privacy/holds/${hold.body.hold.id}/release`, officer.auth, { reason: 'order lifted' });
    expect(released.body.hold).toMatchObject({ releaseReason: 'order lifted', releasedBy: `key:${officer.key}` });
    const twice = await sys.post(`/v1/privacy/holds/${hold.body.hold.id}/release`, officer.auth, {});
    expect([twice.status, twice.body.success]).toEqual([400, false]);

    for (const [path, body] of [
      ['/v1/privacy/exports', {}],
      ['/v1/privacy/exports', { userId: '1', platform: 'p', reporterId: 'r' }],
      ['/v1/privacy/erasures', { userId: 1 }],
      ['/v1/privacy/holds', { target: { type: 'planet', id: 'x' }, reason: 'r' }],
      ['/v1/privacy/holds', { target: { type: 'case', id: 'x' }, reason: 'r', until: '2001-01-01T00:00:00Z' }],
    ] as const) {
      const bad = await sys.post(path, officer.auth, body);
      expect(bad.status, `${path} ${JSON.stringify(body)}: ${JSON.stringify(bad.body)}`).toBe(400);
      expect(isErrorShape(bad.body)).toBe(true);
    }
    const unknown = await sys.post('/v1/privacy/holds/nope/release', officer.auth, {});
    expect([unknown.status, isErrorShape(unknown.body)]).toEqual([404, true]);
  });

  it("erases a chat-platform reporter's DMs in the embedded recorder: the dismissal's words and their id are gone from it, their id from the file", async () => {
    const officer = await sys.createKey(['--permission', 'privacy.manage']);
    await sys.addUser('88201', 'DmTarget', 'Dm Target');
    const reporterId = 'chatter-Wq3x';
    const res = await sys.post('/v1/reports/new', admin.auth, { userId: '88201', answers: [{ questionId: 'q1', answer: 'chat words' }], reporter: { id: reporterId, platform: 'chatplatform' }, evidence: [{ url: 'https://clips.example/dm-case', type: 'url' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await sys.waitFor(async () => (await sys.get('/v1/reports/88201', admin.auth)).body.reports?.length === 1, 15_000, 'the report stored');
    const dismissed = await sys.post(`/v1/reports/${res.body.id}/dismiss`, admin.auth, { moderator: { id: 'm1' }, reason: 'not enough in the clip Ry6u', dm: true });
    expect(dismissed.status, JSON.stringify(dismissed.body)).toBe(200);
    const recorder = async () => (await sys.cli(['messages', 'list', '--limit', '1000', '--json'])).stdout;
    await sys.waitFor(async () => (await recorder()).includes(`dm:${reporterId}`), 15_000, 'the DM to the reporter recorded');
    expect(await recorder()).toContain('Ry6u');

    const erased = await sys.post('/v1/privacy/erasures', officer.auth, { platform: 'chatplatform', reporterId });
    expect(erased.body).toMatchObject({ success: true, erased: { reports: 1, chatMessages: 1 } });
    const after = await recorder();
    for (const gone of [reporterId, 'Ry6u']) expect(after.includes(gone), gone).toBe(false);
    // The reporter's id is gone from the whole file; the dismissal's reason stays in the case's history.
    expect(storeBytes().includes(reporterId), 'the SQLite file still holds the reporter id').toBe(false);
  });
});
