import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorShape, report, System, type Key } from './harness.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let sys: System;
let submitter: Key;
let viewer: Key;

beforeAll(async () => {
  sys = await System.start({ env: { MAX_REPORTS_PER_DAY: '3' } });
  [submitter, viewer] = await Promise.all([
    sys.createKey(['--permission', 'reports.submit_report']),
    sys.createKey(['--permission', 'reports.view_reports']),
  ]);
  for (const id of ['100', '101', '102', '103', '104', '105', '106']) await sys.addUser(id);
});
afterAll(() => sys?.stop());

const submit = (body: unknown, key: Key = submitter) => sys.post('/v1/reports/new', key.auth, body);

describe('POST /v1/reports/new', () => {
  it('accepts a valid report with a UUIDv7 id and stores it', async () => {
    const res = await submit(report('100', 'r-accept'));
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.id).toMatch(UUID_V7);
    expect(res.body.appended).toBeUndefined();
    await sys.waitFor(async () => (await sys.get('/v1/reports/100', viewer.auth)).body.count === 1, 15_000, 'report stored');
    const list = await sys.get('/v1/reports/100', viewer.auth);
    expect(list.body.reports[0]).toMatchObject({ repid: res.body.id, reason: 'Used an aimbot in ranked', evidence: ['https://clips.example/1'], banned: false });
  });

  it('answers appended: true when the user already has an open case', async () => {
    const first = await submit(report('101', 'r-a'));
    const second = await submit(report('101', 'r-b'));
    expect(first.body.appended).toBeUndefined();
    expect(second.status).toBe(200);
    expect(second.body.appended).toBe(true);
    expect(second.body.id).not.toBe(first.body.id);
  });

  it('refuses a second report by the same reporter about the same open case with 400', async () => {
    expect((await submit(report('102', 'r-dup'))).status).toBe(200);
    const again = await submit(report('102', 'r-dup'));
    expect(again.status).toBe(400);
    expect(isErrorShape(again.body)).toBe(true);
    expect(again.body.message).toMatch(/already reported/);
  });

  it('refuses reports past the daily maximum with 429, counting per reporter', async () => {
    for (const user of ['103', '104', '105']) expect((await submit(report(user, 'r-daily'))).status).toBe(200);
    const over = await submit(report('100', 'r-daily'));
    expect(over.status).toBe(429);
    expect(isErrorShape(over.body)).toBe(true);
    expect(over.body.message).toMatch(/maximum of 3 reports per day/);
    // Another reporter is not affected.
    expect((await submit(report('103', 'r-other'))).status).toBe(200);
  });

  it('answers 404 for a user the game platform does not know', async () => {
    const res = await submit(report('999999', 'r-404'));
    expect(res.status).toBe(404);
    expect(isErrorShape(res.body)).toBe(true);
    expect(res.body.message).toMatch(/999999/);
  });

  it('answers 403 when a plain key sets reportType, and accepts it from an elevated key', async () => {
    const plain = await submit(report('100', 'r-type', { reportType: 'bot' }));
    expect(plain.status).toBe(403);
    expect(isErrorShape(plain.body)).toBe(true);
    const elevated = await sys.createKey(['--permission', 'reports.submit_report', '--elevated']);
    expect((await submit(report('100', 'r-type2', { reportType: 'bot' }), elevated)).status).toBe(200);
    const admin = await sys.createKey(['--admin']);
    expect((await submit(report('100', 'r-type3', { reportType: 'website' }), admin)).status).toBe(200);
  });
});

describe('POST /v1/reports/new validation (spec 2.1 and 8)', () => {
  const answers = (n: number) => Array.from({ length: n }, (_, i) => ({ questionId: `q${i}`, answer: 'x' }));
  const evidence = (n: number) => Array.from({ length: n }, (_, i) => ({ url: `https://e/${i}`, type: 'url' }));

  it.each([
    ['answers: 0 items', { answers: [] }, 'answers'],
    ['answers: 6 items', { answers: answers(6) }, 'answers'],
    ['answer text empty', { answers: [{ questionId: 'q', answer: '' }] }, 'answers.0.answer'],
    ['answer text 501 chars', { answers: [{ questionId: 'q', answer: 'a'.repeat(501) }] }, 'answers.0.answer'],
    ['evidence: 0 items', { evidence: [] }, 'evidence'],
    ['evidence: 6 items', { evidence: evidence(6) }, 'evidence'],
    ['evidence type unknown', { evidence: [{ url: 'u', type: 'ftp' }] }, 'evidence.0.type'],
    ['evidence createEvidence not boolean', { evidence: [{ url: 'u', type: 'url', createEvidence: 'yes' }] }, 'evidence.0.createEvidence'],
    ['reporter platform unknown', { reporter: { id: 'r', platform: 'console' } }, 'reporter.platform'],
    ['reportType unknown', { reportType: 'email' }, 'reportType'],
    ['userId wrong type', { userId: 100 }, 'userId'],
    ['unknown top-level property', { extra: true }, 'extra'],
    ['unknown property in an answer', { answers: [{ questionId: 'q', answer: 'a', score: 1 }] }, 'answers.0.score'],
    ['unknown property in evidence', { evidence: [{ url: 'u', type: 'url', size: 1 }] }, 'evidence.0.size'],
    ['unknown property in reporter', { reporter: { id: 'r', platform: 'gameplatform', ip: 'x' } }, 'reporter.ip'],
    ['missing reporter', { reporter: undefined }, 'reporter'],
  ])('400 for %s, naming %s', async (_name, override, field) => {
    const res = await submit(report('100', 'r-val', override));
    expect(res.status).toBe(400);
    expect(isErrorShape(res.body)).toBe(true);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it.each([
    ['1 answer', { answers: answers(1) }],
    ['5 answers', { answers: answers(5) }],
    ['answer of 500 chars', { answers: [{ questionId: 'q', answer: 'a'.repeat(500) }] }],
    ['5 evidence items with createEvidence', { evidence: evidence(5).map((e) => ({ ...e, createEvidence: true })) }],
    ['s3Upload evidence and chatplatform reporter', { evidence: [{ url: 'k', type: 's3Upload' }], reporter: { id: 'x', platform: 'chatplatform' } }],
  ])('accepts the bound: %s', async (_name, override) => {
    const key = await sys.createKey(['--permission', 'reports.submit_report']);
    const reporter = `r-bound-${Math.random()}`;
    const body = report('104', reporter, override);
    const res = await submit({ ...body, reporter: { ...(body['reporter'] as object), id: reporter } }, key);
    expect(res.status).toBe(200);
  });

  it('400 in the error shape for malformed JSON', async () => {
    const res = await sys.request('POST', '/v1/reports/new', { auth: submitter.auth, rawBody: '{"userId": ' });
    expect(res.status).toBe(400);
    expect(isErrorShape(res.body)).toBe(true);
  });

  it('a lone UTF-16 surrogate is stored as U+FFFD, so every answer holding it stays valid JSON; a pair stays whole', async () => {
    const body = JSON.stringify(report('106', 'r-surrogate')).replace('Used an aimbot in ranked', 'lone \\ud800 pair \\ud83d\\ude00');
    expect(body).toContain('\\ud800');
    expect((await sys.request('POST', '/v1/reports/new', { auth: submitter.auth, rawBody: body })).status).toBe(200);
    await sys.waitFor(async () => (await sys.get('/v1/reports/106', viewer.auth)).body.count === 1, 15_000, 'report stored');
    const raw = await fetch(`${sys.baseUrl}/v1/reports/106`, { headers: { authorization: viewer.auth } }).then((r) => r.text());
    expect(raw).not.toMatch(/\\ud800/i);
    expect(JSON.parse(raw).reports[0].reason).toBe('lone \ufffd pair \u{1F600}');
  });

  it('400 naming the path of a __proto__ key, which Fastify called "not valid JSON"', async () => {
    const body = JSON.stringify(report('100', 'r-proto')).replace('"reporter":{', '"reporter":{"__proto__":{"admin":true},');
    const res = await sys.request('POST', '/v1/reports/new', { auth: submitter.auth, rawBody: body });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'reporter.__proto__', message: 'forbidden property name' }]);
  });

  it('400 for a body that is not JSON', async () => {
    const res = await sys.request('POST', '/v1/reports/new', { auth: submitter.auth, rawBody: 'userId=1', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(400);
    expect(isErrorShape(res.body)).toBe(true);
  });

  it('400 for a body over the size limit', async () => {
    const res = await sys.request('POST', '/v1/reports/new', { auth: submitter.auth, rawBody: JSON.stringify({ pad: 'x'.repeat(100_000) }) });
    expect(res.status).toBe(400);
    expect(isErrorShape(res.body)).toBe(true);
  });
});
