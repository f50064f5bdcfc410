import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakePlatform } from './fake-platform.js';
import { System, type Key } from './harness.js';
import { categorized, TEST_POLICY, writePolicy } from './triage-policy.js';

// Issue 32 items 1 and 2 through HTTP: a case left past a short SLA carries the flag
// `sla_breached` in the case API and is found by `?flag=sla_breached`; cases carry the player's
// names from the directory, null when the directory has none.
const SLA_S = 2;
const POLICY = { ...TEST_POLICY, categories: { ...TEST_POLICY.categories, other: { severity: 0, sla: `PT${SLA_S}S`, clause: 'Follow the code of conduct.' } } };

let fake: FakePlatform;
let sys: System;
let submitter: Key;
let viewer: Key;

beforeAll(async () => {
  fake = await FakePlatform.start();
  fake.addUser({ id: 9301, name: 'alpha', displayName: 'ALPHA', avatar: null });
  fake.addUser({ id: 9302, name: 'bravo', displayName: 'Bravo', avatar: 'https://avatars.example.test/bravo.png' });
  fake.addUser({ id: 9303, name: 'gone', displayName: 'Gone Soon', avatar: null });
  sys = await System.start({
    // A short directory cache, so a player removed from the directory is soon unknown to the gateway.
    env: { MAX_REPORTS_PER_DAY: '1000', TRIAGE_POLICY: writePolicy(POLICY), USER_DIRECTORY_URL: `${fake.url}/directory`, USER_CACHE_TTL_MS: '200' },
  });
  [submitter, viewer] = await Promise.all([sys.createKey(['--permission', 'reports.submit_report']), sys.createKey(['--permission', 'reports.view_reports'])]);
});
afterAll(async () => {
  await sys?.stop();
  await fake?.stop();
});

const list = async (query = '') => (await sys.get(`/v1/cases?limit=100${query}`, viewer.auth)).body;
const caseOfUser = async (userId: string, query = '') => ((await list(query)).cases as any[]).find((c) => c.userId === userId);

describe('a case past its SLA', () => {
  it('shows sla_breached in flags (list and detail) and is found by ?flag=sla_breached; a case within its SLA is not', async () => {
    // `other` has a 2 s SLA, `cheating` 4 h.
    expect((await sys.post('/v1/reports/new', submitter.auth, categorized('9301', 'sla-r1', 'other'))).status).toBe(200);
    expect((await sys.post('/v1/reports/new', submitter.auth, categorized('9302', 'sla-r2', 'cheating'))).status).toBe(200);
    await sys.waitFor(async () => (await caseOfUser('9302')) !== undefined, 15_000, 'the cheating case to be triaged');
    await sys.waitFor(async () => (await caseOfUser('9301'))?.flags.includes('sla_breached') === true, 30_000, 'the case past its SLA to be flagged');

    const breached = await caseOfUser('9301');
    expect(breached).toMatchObject({ state: 'open', categories: ['other'], flags: ['sla_breached'] });
    const filtered = await list('&flag=sla_breached');
    expect(filtered.cases.map((c: any) => c.userId)).toEqual(['9301']);
    expect(filtered.count).toBe(1);
    const detail = (await sys.get(`/v1/cases/${breached.caseId}`, viewer.auth)).body.case;
    expect(detail.flags).toEqual(['sla_breached']);

    const within = await caseOfUser('9302');
    expect(within.flags).not.toContain('sla_breached');
    expect((await list('&flag=suspected_brigade')).cases.map((c: any) => c.userId)).not.toContain('9301');

    // GET /v1/stats counts the same case.
    const stats = (await sys.get('/v1/stats', viewer.auth)).body;
    expect(stats.openSlaBreached).toBe(1);
  });
});

describe('names of the players', () => {
  it('the queue and the case carry name and display name from the directory; null when it has none', async () => {
    const alpha = await caseOfUser('9301');
    expect(alpha.player).toEqual({ name: 'alpha', displayName: 'ALPHA' });
    expect((await sys.get(`/v1/cases/${alpha.caseId}`, viewer.auth)).body.case.player).toEqual({ name: 'alpha', displayName: 'ALPHA' });

    expect((await sys.post('/v1/reports/new', submitter.auth, categorized('9303', 'names-r1', 'spam'))).status).toBe(200);
    await sys.waitFor(async () => (await caseOfUser('9303'))?.player?.name === 'gone', 15_000, 'the case of 9303 with its names');
    fake.users.delete('9303');
    await sys.waitFor(async () => (await caseOfUser('9303'))?.player === null, 15_000, 'the case of a player the directory no longer knows to carry no names');
    expect((await caseOfUser('9303')).userId).toBe('9303');
  });

  it('GET /v1/players/{userId}: the directory’s names and avatar; 404 in the error shape when it has none', async () => {
    const bravo = await sys.get('/v1/players/9302', viewer.auth);
    expect(bravo.status).toBe(200);
    expect(bravo.body).toEqual({ success: true, player: { id: '9302', name: 'bravo', displayName: 'Bravo', avatar: 'https://avatars.example.test/bravo.png' } });
    const unknown = await sys.get('/v1/players/no-such-player', viewer.auth);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, message: 'User no-such-player not found on the game platform' });
    expect((await sys.get('/v1/players/9302', submitter.auth)).status).toBe(403);
  });
});
