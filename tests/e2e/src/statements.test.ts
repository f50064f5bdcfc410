import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakePlatform } from './fake-platform.js';
import { APPS, isErrorShape, runNode, System, type Key } from './harness.js';
import { categorized, TEST_POLICY, writePolicy } from './triage-policy.js';

// Statements of reasons on sanctions of every source (a moderator's approval, one of an escalated
// case, an automatic rule, a trusted system, a scheduled wave), shown in the ban API, the feed and
// the webhook; GET /v1/transparency's figures; the CLI's export checked line by line against the
// EU Transparency Database's field rules.
const HARASSMENT = 'Do not insult, threaten or harass other players.';
const POLICY = {
  ...TEST_POLICY,
  categories: {
    ...TEST_POLICY.categories,
    harassment: { severity: 4, sla: 'PT8H', clause: HARASSMENT, publicDescription: 'Harassment of other players', transparencyCategory: 'CYBER_VIOLENCE' },
  },
  rules: [
    { id: 'harass-escalate', category: 'harassment', minReporters: 2, minCredibility: 0.4, window: 'PT1H', action: { type: 'escalate', boost: 50 } },
    { id: 'spam-ban', category: 'spam', minReporters: 2, minCredibility: 0.4, window: 'PT1H', action: { type: 'sanction', kind: 'chat', duration: 'P1D' } },
  ],
  appeals: { window: 'P200D', sla: 'P7D' },
  systemModeratorId: 'triage-bot',
};
const APPEAL_MS = 200 * 86_400_000;
const SECRET = 'statements-secret';
const started = Date.now();

let fake: FakePlatform;
let sys: System;
let submitter: Key;
let handler: Key;
let reader: Key;
let anticheat: Key;
let admin: Key;
let nextUser = 9700;
let nextKey = 0;

beforeAll(async () => {
  fake = await FakePlatform.start();
  sys = await System.start({
    env: { MAX_REPORTS_PER_DAY: '1000', TRIAGE_POLICY: writePolicy(POLICY), DECISION_WEBHOOK_URL: `${fake.url}/hooks/decisions`, DECISION_WEBHOOK_SECRET: SECRET, NOTIFY_BACKOFF_MS: '50' },
  });
  [submitter, handler, reader, anticheat, admin] = await Promise.all([
    sys.createKey(['--permission', 'reports.submit_report']),
    sys.createKey(['--permission', 'reports.handle_reports', '--permission', 'reports.view_reports']),
    sys.createKey(['--permission', 'sanctions.read', '--permission', 'reports.view_reports']),
    sys.createKey(['--name', 'vac', '--permission', 'sanctions.write', '--permission', 'sanctions.read']),
    sys.createKey(['--admin']),
  ]);
  await sys.addModerator('triage-bot', 'Triage bot');
  await sys.addModerator('m1', 'alice');
});
afterAll(async () => {
  await sys?.stop();
  await fake?.stop();
});

const newUser = async () => {
  const id = String(nextUser++);
  await sys.addUser(id);
  return id;
};
/** Reports `userId` once per reporter in `category`; returns the report ids. */
async function reportAll(userId: string, category: string, reporters: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const r of reporters) {
    const res = await sys.post('/v1/reports/new', submitter.auth, categorized(userId, `${r}-${userId}`, category));
    expect(res.status).toBe(200);
    ids.push(res.body.id);
  }
  return ids;
}
async function caseOf(userId: string, state = ''): Promise<any> {
  let found: any;
  await sys.waitFor(
    async () => {
      found = (await sys.get(`/v1/cases?limit=100${state ? `&state=${state}` : ''}`, handler.auth)).body.cases.find((c: any) => c.userId === userId);
      return found !== undefined;
    },
    20_000,
    `the case of ${userId}`,
  );
  return found;
}
const status = async (userId: string) => (await sys.get(`/v1/sanctions/${userId}`, reader.auth)).body;
async function feedEvents(): Promise<any[]> {
  const events: any[] = [];
  for (let after = '0'; ; ) {
    const page = (await sys.get(`/v1/sanctions?limit=1000&after=${after}`, reader.auth)).body;
    if (page.events.length === 0) return events;
    events.push(...page.events);
    after = page.next;
  }
}
/** The statement as the ban API, the feed's creation event and the webhook show it: all three the same. */
async function statementEverywhere(userId: string, sanctionId: string): Promise<any> {
  const shown = (await status(userId)).sanctions.find((s: any) => s.id === sanctionId);
  expect(shown).toBeDefined();
  const event = (await feedEvents()).find((e) => e.sanctionId === sanctionId && e.type === 'sanction.created');
  expect(event.statement).toEqual(shown.statement);
  await sys.waitFor(async () => fake.requests('POST', 'hooks').some((r) => r.body.sanctionId === sanctionId && r.body.event === 'sanction.created'), 15_000, 'the sanction webhook');
  expect(fake.requests('POST', 'hooks').find((r) => r.body.sanctionId === sanctionId && r.body.event === 'sanction.created')!.body.statement).toEqual(shown.statement);
  return shown.statement;
}

describe('statements of reasons', () => {
  it("a moderator's approval: the category's clause or the law named, the reports and evidence, no automation, the appeal's end", async () => {
    const userId = await newUser();
    const [reportId] = await reportAll(userId, 'cheating', ['a1']);
    await caseOf(userId);
    const res = await sys.post(`/v1/reports/${reportId}/approve`, handler.auth, {
      moderator: { id: 'm1' },
      kind: 'ban',
      duration: 'P7D',
      reason: 'Aimbot in the clip',
      illegalContent: { law: 'Section 202c StGB (Germany)', explanation: 'Distributing cheat software' },
    });
    expect(res.status).toBe(200);
    // The spec'd answer is unchanged.
    expect(Object.keys(res.body.data).sort()).toEqual(['hideUsername', 'message', 'moderator', 'reportId', 'reportedUser', 'reports']);
    const sanction = (await status(userId)).sanctions[0];
    const s = await statementEverywhere(userId, sanction.id);
    expect(s).toEqual({
      ground: { type: 'illegal', clause: TEST_POLICY.categories.cheating.clause, law: 'Section 202c StGB (Germany)', explanation: 'Distributing cheat software' },
      facts: {
        origin: 'reports',
        category: 'cheating',
        publicDescription: 'Cheating',
        transparencyCategory: 'OTHER_VIOLATION_TC',
        reports: { count: 1, firstAt: expect.any(Number), lastAt: expect.any(Number) },
        evidence: [{ url: `https://clips.example/${userId}/a1-${userId}`, sha256: null }],
        reason: 'Aimbot in the clip',
      },
      restriction: { kind: 'ban', label: 'Banned (no login)', blocksLogin: true, from: sanction.createdAt, until: sanction.expiresAt },
      automation: { automatedDetection: false, automatedDecision: 'not' },
      redress: { appealUntil: sanction.createdAt + APPEAL_MS, howToAppeal: expect.stringContaining('appeal this decision in the game until') },
      issuedAt: sanction.createdAt,
    });
    expect(s.facts.reports.firstAt).toBeLessThanOrEqual(sanction.createdAt);
  });

  it('approve refuses a bad illegalContent with the field named; without one the ground is the terms', async () => {
    const userId = await newUser();
    const [reportId] = await reportAll(userId, 'spam', ['b1']);
    await caseOf(userId);
    for (const [illegalContent, field] of [
      [{ law: '' }, 'illegalContent.law'],
      [{ law: 'x'.repeat(501) }, 'illegalContent.law'],
      [{ law: 'L', explanation: 5 }, 'illegalContent.explanation'],
      [{ law: 'L', extra: 1 }, 'illegalContent.extra'],
      ['§ 1', 'illegalContent'],
    ] as const) {
      const bad = await sys.post(`/v1/reports/${reportId}/approve`, handler.auth, { moderator: { id: 'm1' }, illegalContent });
      expect(bad.status).toBe(400);
      expect(isErrorShape(bad.body)).toBe(true);
      expect(bad.body.errors.map((e: any) => e.field)).toContain(field);
    }
    expect((await sys.post(`/v1/reports/${reportId}/approve`, handler.auth, { moderator: { id: 'm1' } })).status).toBe(200);
    const [sanction] = (await status(userId)).sanctions;
    expect(sanction.statement.ground).toEqual({ type: 'terms', clause: TEST_POLICY.categories.spam.clause, law: null, explanation: TEST_POLICY.categories.spam.clause });
  });

  it('a moderator approving a case a rule escalated: partially automated, on the harassment clause', async () => {
    const userId = await newUser();
    const [reportId] = await reportAll(userId, 'harassment', ['c1', 'c2']);
    await sys.waitFor(async () => (await caseOf(userId)).flags.includes('escalated'), 20_000, 'the escalation');
    expect((await sys.post(`/v1/reports/${reportId}/approve`, handler.auth, { moderator: { id: 'm1' }, kind: 'chat', duration: 'P1D' })).status).toBe(200);
    const [sanction] = (await status(userId)).sanctions;
    const s = await statementEverywhere(userId, sanction.id);
    expect(s.ground).toMatchObject({ type: 'terms', clause: HARASSMENT, law: null });
    expect(s.facts).toMatchObject({ category: 'harassment', publicDescription: 'Harassment of other players', transparencyCategory: 'CYBER_VIOLENCE', reports: { count: 2 } });
    expect(s.facts.evidence).toHaveLength(2);
    expect(s.automation).toEqual({ automatedDetection: false, automatedDecision: 'partially' });
    expect(s.restriction).toMatchObject({ kind: 'chat', label: 'No text or voice chat', blocksLogin: false });
  });

  it("an automatic rule's sanction: fully automated, the rule's reason", async () => {
    const userId = await newUser();
    await reportAll(userId, 'spam', ['d1', 'd2']);
    await caseOf(userId, 'approved');
    const [sanction] = (await status(userId)).sanctions;
    const s = await statementEverywhere(userId, sanction.id);
    expect(s.automation).toEqual({ automatedDetection: false, automatedDecision: 'fully' });
    expect(s.facts).toMatchObject({ origin: 'reports', category: 'spam', reason: 'automatic triage rule spam-ban', reports: { count: 2 } });
    expect(s.restriction).toMatchObject({ kind: 'chat', until: sanction.expiresAt });
  });

  it("a trusted system's sanction: detected automatically on its own initiative; it says whether a person decided", async () => {
    const userId = await newUser();
    const body = (extra: Record<string, unknown>) => ({
      userId,
      kind: 'ban',
      category: 'cheating',
      reason: 'Cheat software detected',
      source: { type: 'anticheat', id: 'vac-3' },
      evidence: [{ url: 'https://ac.example/d/1', type: 'url' }],
      idempotencyKey: `st-${nextKey++}`,
      ...extra,
    });
    const auto = await sys.post('/v1/sanctions', anticheat.auth, body({}));
    expect(auto.status).toBe(200);
    const s = await statementEverywhere(userId, auto.body.sanction.id);
    expect(auto.body.sanction.statement).toEqual(s);
    expect(s).toMatchObject({
      ground: { type: 'terms', clause: TEST_POLICY.categories.cheating.clause },
      facts: { origin: 'own_initiative', reports: null, evidence: [{ url: 'https://ac.example/d/1', sha256: null }], reason: 'Cheat software detected' },
      automation: { automatedDetection: true, automatedDecision: 'fully' },
      restriction: { kind: 'ban', from: auto.body.sanction.createdAt, until: null },
    });
    const reviewed = await sys.post('/v1/sanctions', anticheat.auth, body({ automatedDecision: 'not', illegalContent: { law: 'Section 202c StGB' } }));
    expect(reviewed.body.sanction.statement).toMatchObject({ ground: { type: 'illegal', law: 'Section 202c StGB' }, automation: { automatedDetection: true, automatedDecision: 'not' } });
    const bad = await sys.post('/v1/sanctions', anticheat.auth, body({ automatedDecision: 'maybe' }));
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'automatedDecision', message: 'automatedDecision must be one of fully, partially, not' }]);
    const badBatch = await sys.post('/v1/sanctions/batch', anticheat.auth, { items: [body({ illegalContent: {} })] });
    expect(badBatch.body.results[0]).toMatchObject({ status: 'refused', errors: [{ field: 'items.0.illegalContent.law' }] });
  });

  it("a scheduled wave's statement starts at effectiveAt, and shows once the wave took effect", async () => {
    const userId = await newUser();
    const effectiveAt = new Date(Date.now() + 3_000).toISOString();
    const res = await sys.post('/v1/sanctions/batch', anticheat.auth, {
      effectiveAt,
      items: [{ userId, kind: 'ban', duration: 'P30D', category: 'cheating', reason: 'Wave', source: { type: 'anticheat', id: 'wave' }, idempotencyKey: `wave-${userId}` }],
    });
    expect(res.body.results[0]).toMatchObject({ status: 'created', sanction: { state: 'scheduled' } });
    const s = res.body.results[0].sanction.statement;
    expect(s.restriction).toEqual({ kind: 'ban', label: 'Banned (no login)', blocksLogin: true, from: Date.parse(effectiveAt), until: Date.parse(effectiveAt) + 30 * 86_400_000 });
    expect(s.redress.appealUntil).toBe(Date.parse(effectiveAt) + APPEAL_MS);
    await sys.waitFor(async () => (await status(userId)).banned === true, 20_000, 'the wave');
    expect(await statementEverywhere(userId, res.body.results[0].sanction.id)).toEqual(s);
  });

  it('a policy category without a clause stops every process at start, naming the field', async () => {
    const { clause: _, ...noClause } = TEST_POLICY.categories.spam;
    const bad = writePolicy({ ...TEST_POLICY, categories: { ...TEST_POLICY.categories, spam: noClause } });
    for (const app of ['gateway', 'moderation'] as const) {
      const r = await runNode(APPS[app], [], { ...sys.env, TRIAGE_POLICY: bad, PORT: '0' });
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/invalid configuration: TRIAGE_POLICY: categories\.spam\.clause: is required/)]);
    }
  });
});

describe('GET /v1/transparency', () => {
  const period = () => `from=${new Date(started - 60_000).toISOString()}&to=${new Date(Date.now() + 60_000).toISOString()}`;

  it('admin keys only; bad or reversed dates are a 400 naming the parameter', async () => {
    expect((await sys.get(`/v1/transparency?${period()}`, reader.auth)).status).toBe(403);
    // Authorised before the query is read, as every route: a bad query from a non-admin key is a 403 too.
    expect((await sys.get('/v1/transparency?from=yesterday', reader.auth)).status).toBe(403);
    for (const [query, name] of [
      ['from=2026-02-30&to=2026-03-01', 'from'],
      ['from=yesterday&to=2026-03-01', 'from'],
      ['from=2026-01-01', 'to'],
      ['from=2026-01-01&to=2026-13-01', 'to'],
      ['from=2026-03-01&to=2026-02-01', 'to'],
      ['from=2026-01-01&to=2026-02-01&extra=1', 'extra'],
    ] as const) {
      const res = await sys.get(`/v1/transparency?${query}`, admin.auth);
      expect(res.status).toBe(400);
      expect(isErrorShape(res.body)).toBe(true);
      expect(res.body.message).toContain(name);
    }
    const day = await sys.get('/v1/transparency?from=2020-01-01&to=2020-01-01', admin.auth);
    expect(day.body.period).toEqual({ from: '2020-01-01T00:00:00.000Z', to: '2020-01-02T00:00:00.000Z' });
    expect(day.body).toMatchObject({ reports: { total: 0 }, sanctions: { total: 0 }, medianTimeToDecisionMs: null, appeals: { received: 0, upheld: 0, overturned: 0, medianTimeToDecisionMs: null } });
  });

  it('the figures are what happened: reports by category and source, decisions, sanctions by kind, ground and automation', async () => {
    const f = (await sys.get(`/v1/transparency?${period()}`, admin.auth)).body;
    const reportsOf = (category: string) => f.reports.byCategoryAndSource.filter((r: any) => r.category === category).reduce((n: number, r: any) => n + r.count, 0);
    // The tests above: cheating 1, spam 1 + 2, harassment 2, all from gameplatform.
    expect(reportsOf('cheating')).toBe(1);
    expect(reportsOf('spam')).toBe(3);
    expect(reportsOf('harassment')).toBe(2);
    expect(f.reports.byCategoryAndSource.every((r: any) => r.source === 'gameplatform')).toBe(true);
    expect(f.decisions).toEqual({ approved: 4, dismissed: 0, undone: 0 });
    expect(f.medianTimeToDecisionMs).toBeGreaterThan(0);
    // 4 approvals (2 ban/chat by moderators, 1 escalated chat, 1 rule chat), 2 trusted bans, 1 wave ban.
    expect(f.sanctions.total).toBe(7);
    expect(f.sanctions.byKind).toEqual(expect.arrayContaining([{ kind: 'ban', count: 5 }, { kind: 'chat', count: 2 }]));
    expect(f.sanctions.byGround).toEqual(expect.arrayContaining([{ ground: 'illegal', count: 2 }, { ground: 'terms', count: 5 }]));
    const automation = (detection: boolean, decision: string) => f.sanctions.byAutomation.find((a: any) => a.automatedDetection === detection && a.automatedDecision === decision)?.count ?? 0;
    expect([automation(false, 'not'), automation(false, 'partially'), automation(false, 'fully'), automation(true, 'fully'), automation(true, 'not')]).toEqual([2, 1, 1, 2, 1]);
    // No appeal was filed here (appeals.test.ts counts them).
    expect(f.appeals).toEqual({ received: 0, upheld: 0, overturned: 0, medianTimeToDecisionMs: null });
  });
});

// The EU Transparency Database's rules for a statement (its API documentation and request
// validation), written out here independently of the exporter: required fields, allowed values,
// dates, lengths, and the fields each ground or decision requires.
const CATEGORIES = [
  'ANIMAL_WELFARE', 'CONSUMER_INFORMATION', 'CYBER_VIOLENCE', 'CYBER_VIOLENCE_AGAINST_WOMEN', 'DATA_PROTECTION_AND_PRIVACY_VIOLATIONS',
  'ILLEGAL_OR_HARMFUL_SPEECH', 'INTELLECTUAL_PROPERTY_INFRINGEMENTS', 'NEGATIVE_EFFECTS_ON_CIVIC_DISCOURSE_OR_ELECTIONS', 'NOT_SPECIFIED_NOTICE',
  'OTHER_VIOLATION_TC', 'PROTECTION_OF_MINORS', 'RISK_FOR_PUBLIC_SECURITY', 'SCAMS_AND_FRAUD', 'SELF_HARM', 'UNSAFE_AND_PROHIBITED_PRODUCTS', 'VIOLENCE',
].map((c) => `STATEMENT_CATEGORY_${c}`) as [string, ...string[]];
const COUNTRIES = ['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IS', 'IT', 'LI', 'LT', 'LU', 'LV', 'MT', 'NL', 'NO', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK'] as const;
const ymd = (min: string) => z.string().regex(/^\d{4}-\d{2}-\d{2}$/).refine((d) => !Number.isNaN(Date.parse(d)) && d >= min, `a YYYY-MM-DD date from ${min}`);
const endDate = ymd('2020-01-01').nullable().optional();
const DsaStatement = z
  .strictObject({
    puid: z.string().min(1).max(500).regex(/^[a-zA-Z0-9-_]+$/),
    decision_visibility: z.array(z.string()).optional(),
    decision_monetary: z.string().optional(),
    decision_provision: z.enum(['DECISION_PROVISION_PARTIAL_SUSPENSION', 'DECISION_PROVISION_TOTAL_SUSPENSION', 'DECISION_PROVISION_PARTIAL_TERMINATION', 'DECISION_PROVISION_TOTAL_TERMINATION']).optional(),
    decision_account: z.enum(['DECISION_ACCOUNT_SUSPENDED', 'DECISION_ACCOUNT_TERMINATED']).optional(),
    account_type: z.enum(['ACCOUNT_TYPE_BUSINESS', 'ACCOUNT_TYPE_PRIVATE']).optional(),
    decision_ground: z.enum(['DECISION_GROUND_ILLEGAL_CONTENT', 'DECISION_GROUND_INCOMPATIBLE_CONTENT']),
    decision_ground_reference_url: z.url().max(500).optional(),
    illegal_content_legal_ground: z.string().min(1).max(500).optional(),
    illegal_content_explanation: z.string().min(1).max(2000).optional(),
    incompatible_content_ground: z.string().min(1).max(500).optional(),
    incompatible_content_explanation: z.string().min(1).max(2000).optional(),
    incompatible_content_illegal: z.enum(['Yes', 'No']).optional(),
    content_type: z.array(z.enum(['CONTENT_TYPE_APP', 'CONTENT_TYPE_AUDIO', 'CONTENT_TYPE_IMAGE', 'CONTENT_TYPE_PRODUCT', 'CONTENT_TYPE_SYNTHETIC_MEDIA', 'CONTENT_TYPE_TEXT', 'CONTENT_TYPE_VIDEO', 'CONTENT_TYPE_OTHER'])).min(1),
    content_type_other: z.string().min(1).max(500).optional(),
    category: z.enum(CATEGORIES),
    territorial_scope: z.array(z.enum(COUNTRIES)).nullable().optional(),
    content_language: z.string().optional(),
    content_date: ymd('2000-01-01'),
    application_date: ymd('2020-01-01'),
    end_date_account_restriction: endDate,
    end_date_monetary_restriction: endDate,
    end_date_service_restriction: endDate,
    end_date_visibility_restriction: endDate,
    decision_facts: z.string().min(1).max(5000),
    source_type: z.enum(['SOURCE_ARTICLE_16', 'SOURCE_TRUSTED_FLAGGER', 'SOURCE_TYPE_OTHER_NOTIFICATION', 'SOURCE_VOLUNTARY']),
    source_identity: z.string().max(500).optional(),
    automated_detection: z.enum(['Yes', 'No']),
    automated_decision: z.enum(['AUTOMATED_DECISION_FULLY', 'AUTOMATED_DECISION_PARTIALLY', 'AUTOMATED_DECISION_NOT_AUTOMATED']),
  })
  .superRefine((s, ctx) => {
    const need = (ok: boolean, message: string) => ok || ctx.addIssue({ code: 'custom', message });
    need([s.decision_visibility, s.decision_monetary, s.decision_provision, s.decision_account].some((d) => d !== undefined), 'one decision_* is required');
    if (s.decision_ground === 'DECISION_GROUND_ILLEGAL_CONTENT') need(!!s.illegal_content_legal_ground && !!s.illegal_content_explanation, 'illegal ground needs its legal ground and explanation');
    else need(!!s.incompatible_content_ground && !!s.incompatible_content_explanation, 'incompatible ground needs its ground and explanation');
    need(!s.content_type.includes('CONTENT_TYPE_OTHER') || !!s.content_type_other, 'CONTENT_TYPE_OTHER needs content_type_other');
    for (const end of [s.end_date_account_restriction, s.end_date_service_restriction, s.end_date_monetary_restriction, s.end_date_visibility_restriction]) {
      need(end == null || end >= s.application_date, 'an end date is on or after application_date');
    }
    need(s.content_date <= s.application_date, 'the content precedes the decision');
  });

describe('npm run cli -- transparency export', () => {
  it("writes every statement of the period as a JSON line valid against the Transparency Database's rules", async () => {
    // A warning is a sanction but restricts nothing: left out of the export.
    const warned = await newUser();
    expect((await sys.post('/v1/sanctions', anticheat.auth, { userId: warned, kind: 'warning', category: 'spam', reason: 'Warned', source: { type: 'anticheat', id: 'w' }, idempotencyKey: `warn-${warned}` })).status).toBe(200);
    const out = join(mkdtempSync(join(tmpdir(), 'rm-export-')), 'sor.jsonl');
    const from = new Date(started - 60_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const r = await sys.cli(['transparency', 'export', '--from', from, '--to', to, '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/transparency export: 7 statement\(s\) written .*; 1 warning\(s\) left out/);
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(7);
    for (const line of lines) {
      const checked = DsaStatement.safeParse(line);
      expect(checked.success ? 'valid' : JSON.stringify(checked.error.issues)).toBe('valid');
    }
    expect(new Set(lines.map((l) => l.puid)).size).toBe(7);
    const by = (key: string, value: string) => lines.filter((l) => l[key] === value).length;
    expect([by('decision_ground', 'DECISION_GROUND_ILLEGAL_CONTENT'), by('decision_ground', 'DECISION_GROUND_INCOMPATIBLE_CONTENT')]).toEqual([2, 5]);
    expect([by('source_type', 'SOURCE_ARTICLE_16'), by('source_type', 'SOURCE_VOLUNTARY')]).toEqual([4, 3]);
    expect([by('automated_decision', 'AUTOMATED_DECISION_FULLY'), by('automated_decision', 'AUTOMATED_DECISION_PARTIALLY'), by('automated_decision', 'AUTOMATED_DECISION_NOT_AUTOMATED')]).toEqual([3, 1, 3]);
    expect(by('category', 'STATEMENT_CATEGORY_CYBER_VIOLENCE')).toBe(1);
    // Temporary bans are suspensions with an end; chat restrictions a partial suspension of the service.
    expect(lines.filter((l) => l.decision_account === 'DECISION_ACCOUNT_SUSPENDED').every((l) => typeof l.end_date_account_restriction === 'string')).toBe(true);
    expect(by('decision_provision', 'DECISION_PROVISION_PARTIAL_SUSPENSION')).toBe(2);
    // No personal data: no player id, no evidence URL.
    for (const l of lines) expect(JSON.stringify(l)).not.toMatch(/clips\.example|ac\.example/);

    // To stdout without --out; an empty period writes nothing.
    const stdout = await sys.cli(['transparency', 'export', '--from', from, '--to', to]);
    expect(stdout.stdout.trim().split('\n')).toHaveLength(7);
    const none = await sys.cli(['transparency', 'export', '--from', '2020-01-01', '--to', '2020-12-31']);
    expect([none.code, none.stdout]).toEqual([0, '']);
  });

  it('refuses bad dates in one line', async () => {
    for (const [args, pattern] of [
      [['--from', 'soon', '--to', '2026-01-01'], /--from: from must be a date/],
      [['--from', '2026-02-01', '--to', '2026-01-01'], /--to must be after --from/],
      [['--from', '2026-01-01'], /--to/],
    ] as const) {
      const r = await sys.cli(['transparency', 'export', ...args]);
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(pattern)]);
    }
  });
});
