import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakePlatform } from './fake-platform.js';
import { APPS, runNode, System, type AppName, type Key } from './harness.js';
import { TEST_POLICY, writePolicy } from './triage-policy.js';

// docs/privacy.md (Logs): the processes log ids, counts and errors, never report text, appeal text,
// names or secrets. A whole system runs at LOG_LEVEL=trace through everything that carries them
// (reports, names from the directory, decisions with reasons, an appeal, an upload, a webhook that
// fails and is retried, an evidence fetch that fails, bad requests, an erasure and the retention
// sweep), then every line each process wrote is searched for them.

const NAME = 'LogNameKxz';
const DISPLAY = 'Log Display Vqw';
const TEXT = 'log report words Hy7u in ranked';
const APPROVE = 'log approve reason Bn3m';
const DISMISS = 'log dismiss reason Qa9s';
const APPEAL = 'log appeal statement Zp4e';
const REVIEW = 'log review reason Wc6t';
const BAD_BODY = 'log bad body words Rd2k';
const TOKEN_SECRET = 'e2e-logs-token-secret-Mv8x-0123456789abcdef';
const WEBHOOK_SECRET = 'e2e-logs-webhook-secret-Jt5g';
const CHAT_TOKEN = 'e2e-logs-chat-token-Pl1o';

let fake: FakePlatform;
let sys: System;
let admin: Key;
let game: Key;

beforeAll(async () => {
  fake = await FakePlatform.start();
  sys = await System.start({
    env: {
      LOG_LEVEL: 'trace',
      TRIAGE_POLICY: writePolicy({ ...TEST_POLICY, retention: { directoryNames: 'P0D', reportText: 'P0D', reporterIdentity: 'P0D', caseMessages: 'P0D', dismissedCases: 'P0D', appealStatements: 'P0D', auditEntries: 'P0D' } }),
      CHAT_API_URL: `${fake.url}/chat`,
      CHAT_TOKEN,
      DECISION_WEBHOOK_URL: `${fake.url}/hooks/decisions`,
      DECISION_WEBHOOK_SECRET: WEBHOOK_SECRET,
      NOTIFY_BACKOFF_MS: '100',
      EVIDENCE_TOKEN_SECRET: TOKEN_SECRET,
      EVIDENCE_FETCH_ALLOW: new URL(fake.url).host,
      CASE_SYNC_DELAY_MS: '0',
      MAX_REPORTS_PER_DAY: '1000',
    },
  });
  admin = await sys.createKey(['--admin']);
  game = await sys.createKey(['--permission', 'reports.submit_report', '--permission', 'reports.view_reports']);
  await sys.addModerator('m1', 'alice');
  await sys.addModerator('m2', 'bob');
}, 120_000);
afterAll(async () => {
  await sys?.stop();
  await fake?.stop();
});

describe('logs', () => {
  it('hold no report text, appeal text, names or secrets, at every level, through a whole run', async () => {
    await sys.addUser('88401', NAME, DISPLAY);
    await sys.addUser('88402', `${NAME}Two`, `${DISPLAY} Two`);
    // The first webhook delivery fails: the retry is logged with its error.
    fake.fail({ match: (r) => r.path[0] === 'hooks', times: 1, status: 500 });

    // An upload: its URL carries a token, a credential.
    const asked = await sys.post('/v1/evidence/uploads', game.auth, { contentType: 'text/plain', size: 5 });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const uploadToken = new URL(asked.body.uploadUrl).pathname.split('/').pop()!;
    expect((await fetch(asked.body.uploadUrl, { method: 'PUT', body: 'hello', headers: { 'content-type': 'text/plain' } })).status).toBe(200);
    // A second PUT to the same URL is refused (403), with the token in its path.
    expect((await fetch(asked.body.uploadUrl, { method: 'PUT', body: 'hello', headers: { 'content-type': 'text/plain' } })).status).toBe(403);

    const submit = (userId: string, reporter: string, evidence: unknown[]) =>
      sys.post('/v1/reports/new', game.auth, {
        userId,
        answers: [
          { questionId: 'category', answer: 'cheating' },
          { questionId: 'details', answer: TEXT },
        ],
        evidence,
        reporter: { id: reporter, platform: 'gameplatform' },
      });
    const first = await submit('88401', 'log-rep-1', [
      { url: asked.body.evidenceUrl, type: 's3Upload' },
      // Fetched and refused (404): a failure the evidence worker logs.
      { url: `${fake.url}/no-such-clip-${TEXT.length}.png`, type: 'url', createEvidence: true },
    ]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const second = await submit('88402', 'log-rep-2', [{ url: 'https://clips.example/second', type: 'url' }]);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    // Refused bodies: the text travels in the request, the answer names the field, the log nothing.
    expect((await sys.post('/v1/reports/new', game.auth, { userId: '88401', answers: [{ questionId: 'q', answer: BAD_BODY }], evidence: 'nope', reporter: {} })).status).toBe(400);
    expect((await sys.request('POST', '/v1/reports/new', { auth: game.auth, rawBody: `{"userId": "${BAD_BODY}"` })).status).toBe(400);
    expect((await sys.post('/v1/reports/new', `${game.key}:wrong-${BAD_BODY}`, { userId: '88401' })).status).toBe(401);

    // Both cases stored and triaged (the case list shows triaged cases).
    const caseOf = async (userId: string) => (await sys.get('/v1/cases?limit=100', admin.auth)).body.cases?.find((c: any) => c.userId === userId)?.caseId as string | undefined;
    await sys.waitFor(async () => (await caseOf('88401')) !== undefined && (await caseOf('88402')) !== undefined, 20_000, 'the cases stored');
    const caseId = (await caseOf('88401'))!;
    const approved = await sys.post(`/v1/reports/${first.body.id}/approve`, admin.auth, { moderator: { id: 'm1' }, reason: APPROVE });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const dismissed = await sys.post(`/v1/reports/${second.body.id}/dismiss`, admin.auth, { moderator: { id: 'm1' }, reason: DISMISS });
    expect(dismissed.status, JSON.stringify(dismissed.body)).toBe(200);
    const sanctionId = (await sys.get('/v1/sanctions/88401', admin.auth)).body.sanctions[0].id as string;
    const appeal = await sys.post('/v1/appeals', admin.auth, { sanctionId, userId: '88401', statement: APPEAL });
    expect(appeal.status, JSON.stringify(appeal.body)).toBe(200);
    expect((await sys.post(`/v1/appeals/${appeal.body.appeal.id}/uphold`, admin.auth, { moderator: { id: 'm2' }, reason: REVIEW })).status).toBe(200);
    // The webhook delivery that failed was retried and delivered; the evidence settled.
    await sys.waitFor(
      async () => {
        const hooks = fake.requests('POST', 'hooks');
        const failed = hooks.filter((r) => r.status === 500).map((r) => r.headers['x-event-id']);
        return failed.length === 1 && failed.every((id) => hooks.some((r) => r.status === 204 && r.headers['x-event-id'] === id));
      },
      20_000,
      'the webhook delivered after its failure',
    );
    await sys.waitFor(
      async () => (await sys.get(`/v1/cases/${caseId}`, admin.auth)).body.case?.reports?.[0]?.evidenceItems?.every((i: any) => i.state !== 'pending') === true,
      20_000,
      'the evidence settled',
    );

    // An erasure, and the retention sweep run by the evidence worker: both log (counts only).
    const cli: string[] = [];
    const erase = await sys.cli(['privacy', 'erase', '--user', '88402']);
    expect(erase.code, erase.stderr).toBe(0);
    cli.push(erase.stderr);
    const job = await sys.queue('evidence').add('retention', { kind: 'retention' }, { jobId: 'retention-logs' });
    await sys.waitFor(async () => ['completed', 'failed'].includes(await job.getState()), 60_000, 'the retention job');
    const sweep = await sys.cli(['privacy', 'sweep']);
    expect(sweep.code, sweep.stderr).toBe(0);
    cli.push(sweep.stderr);

    const secrets = [
      NAME,
      DISPLAY,
      TEXT,
      APPROVE,
      DISMISS,
      APPEAL,
      REVIEW,
      BAD_BODY,
      TOKEN_SECRET,
      WEBHOOK_SECRET,
      CHAT_TOKEN,
      uploadToken,
      admin.secret,
      game.secret,
    ];
    // Let the last lines reach the harness: stop every process (their shutdown logs too).
    for (const app of Object.keys(APPS) as AppName[]) await sys.stopApp(app);
    const logs = Object.fromEntries((Object.keys(APPS) as AppName[]).map((app) => [app, sys.logsOf(app)]));
    for (const [app, text] of Object.entries(logs)) {
      // Something was logged (trace level): the search is over real lines.
      expect(text.split('\n').filter((l) => l.startsWith('{')).length, `${app} logged nothing`).toBeGreaterThan(0);
      for (const secret of secrets) expect(text.includes(secret), `${app}'s log holds ${secret}: ${text.split('\n').find((l) => l.includes(secret))}`).toBe(false);
    }
    // The retention sweep's line is there, with counts.
    expect(logs['evidence']).toMatch(/"msg":"retention sweep"/);
    for (const text of cli) for (const secret of secrets) expect(text.includes(secret), `the CLI's stderr holds ${secret}`).toBe(false);
  });

  it('a process refusing a bad secret at start names it, not its value', async () => {
    const short = 'too-short-secret-Gf5h';
    const worker = await runNode(APPS.evidence, [], { ...sys.env, EVIDENCE_TOKEN_SECRET: short });
    expect(worker.code).toBe(1);
    expect(worker.stderr).toContain(`evidence-worker: invalid configuration: EVIDENCE_TOKEN_SECRET: must be at least 32 characters (got ${short.length} characters, not shown)`);
    expect(worker.stderr + worker.stdout).not.toContain(short);
  });
});
