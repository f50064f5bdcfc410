import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '@rm/runtime';
import type { SanctionRecord } from '@rm/storage';
import { caseCategory, DEFAULT_POLICY, DEFAULT_RETENTION, durationMs, evidenceRetentionMs, kindsOf, loadPolicy, lookbackMs, policyFromEnv, proposeStep, queueSettingsOf, retentionMsOf, TriagePolicy } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'rm-policy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('durations', () => {
  it('durationMs reads a validated ISO 8601 duration', () => {
    expect(durationMs('PT30M')).toBe(30 * 60_000);
    expect(durationMs('P1DT2H')).toBe(26 * 3_600_000);
    expect(() => durationMs('P1M')).toThrow(/not an ISO 8601 duration/);
  });
});

describe('the triage policy', () => {
  it('the built-in default is valid', () => {
    expect(TriagePolicy.parse(DEFAULT_POLICY)).toEqual(DEFAULT_POLICY);
  });

  it('loads JSON and YAML files', () => {
    const policy = { ...DEFAULT_POLICY, claimTtl: 'PT5M' };
    expect(loadPolicy(file('p.json', JSON.stringify(policy))).claimTtl).toBe('PT5M');
    const yaml = file('p.yaml', `category: {questionId: kind, default: other}\ncategories:\n  other: {severity: 1, sla: PT1H, clause: Follow the code of conduct.}\nweights: {severity: 1, reporters: 1, agePerHour: 0}\nbrigade: {window: PT1M, minReporters: 3, suspectShare: 0.5, lowCredibility: 0.2}\nclaimTtl: PT10M\nsystemModeratorId: bot\n`);
    expect(loadPolicy(yaml)).toMatchObject({ category: { questionId: 'kind' }, rules: [], systemModeratorId: 'bot' });
  });

  it('names the bad field in one line', () => {
    const bad = (patch: object) => () => loadPolicy(file('bad.json', JSON.stringify({ ...DEFAULT_POLICY, ...patch })));
    expect(bad({ claimTtl: '30 minutes' })).toThrow(/^claimTtl: must be a positive ISO 8601 duration/);
    expect(bad({ categories: { other: { severity: -1, sla: 'PT1H', clause: 'Follow the code of conduct.' } } })).toThrow(/^categories\.other\.severity: must be at least 0$/);
    expect(bad({ category: { questionId: 'q', default: 'nope' } })).toThrow(/^category\.default: names no category/);
    expect(bad({ extra: 1 })).toThrow(/extra/);
    const rule = { id: 'r1', category: 'cheating', minReporters: 2, minCredibility: 0.5, window: 'PT1H', action: { type: 'escalate', boost: 10 } };
    expect(bad({ rules: [rule, rule] })).toThrow(/^rules\.1\.id: duplicate rule id r1$/);
    expect(bad({ rules: [{ ...rule, category: 'unknown' }] })).toThrow(/^rules\.0\.category: names no category/);
    expect(bad({ rules: [{ ...rule, action: { type: 'sanction', duration: 'P1M' } }] })).toThrow(/^rules\.0\.action\.duration: must be a positive ISO 8601 duration/);
    expect(bad({ rules: [{ ...rule, action: { type: 'mute' } }] })).toThrow(/^rules\.0\.action/);
    expect(bad({ rules: [{ ...rule, action: { type: 'sanction', kind: 'jail' } }] })).toThrow(/^rules\.0\.action\.kind: names no kind \(warning, chat, matchmaking, ranked, ban\)$/);
    // The ladder: known categories and kinds, durations as on approve, a lookback.
    const ladder = (l: object) => bad({ ladder: l });
    expect(ladder({ steps: { cheeting: [{ kind: 'ban' }] } })).toThrow(/^ladder\.steps\.cheeting: names no category of `categories` \(cheating, harassment/);
    expect(ladder({ steps: { cheating: [{ kind: 'ban', duration: 'P14D' }, { kind: 'jail' }] } })).toThrow(/^ladder\.steps\.cheating\.1\.kind: names no kind/);
    expect(ladder({ steps: { cheating: [{ kind: 'ban', duration: 'P2W' }] } })).toThrow(/^ladder\.steps\.cheating\.0\.duration: must be a positive ISO 8601 duration of days/);
    expect(ladder({ steps: { cheating: [] } })).toThrow(/^ladder\.steps\.cheating: must list at least one step$/);
    expect(ladder({ lookback: 'a year' })).toThrow(/^ladder\.lookback: must be a positive ISO 8601 duration/);
    expect(bad({ kinds: { warning: { label: 'Warn', blocksLogin: true } } })).toThrow(/^kinds\.warning\.blocksLogin: a warning restricts nothing/);
    expect(bad({ kinds: { voice: { label: 'No voice' } } })).toThrow(/^kinds\.voice\.blocksLogin/);
    // Every category names the clause it enforces (the ground of its statements of reasons).
    expect(bad({ categories: { other: { severity: 1, sla: 'PT1H' } } })).toThrow(/^categories\.other\.clause: is required: the text of the rule of your terms/);
    expect(bad({ categories: { other: { severity: 1, sla: 'PT1H', clause: '  ' } } })).toThrow(/^categories\.other\.clause: must not be empty/);
    expect(bad({ categories: { other: { severity: 1, sla: 'PT1H', clause: 'x', transparencyCategory: 'CHEATING' } } })).toThrow(/^categories\.other\.transparencyCategory: must be one of ANIMAL_WELFARE/);
    // A public description: one text, or texts by language with English (the default) among them.
    const described = (publicDescription: unknown) => bad({ categories: { other: { severity: 1, sla: 'PT1H', clause: 'x', publicDescription } } });
    expect(described({ de: 'Betrug' })).toThrow(/^categories\.other\.publicDescription\.en: is required: the English text/);
    expect(described({ en: 'Cheating', de: ' ' })).toThrow(/^categories\.other\.publicDescription\.de: must not be empty$/);
    expect(described({ en: 'Cheating', German: 'Betrug' })).toThrow(/^categories\.other\.publicDescription\.German: is not a language tag/);
    expect(described({ en: 'x'.repeat(501) })).toThrow(/^categories\.other\.publicDescription\.en: must be at most 500 characters$/);
    expect(described(42)).toThrow(/^categories\.other\.publicDescription: must be a text, or an object of texts by language/);
    const texts = { en: 'Cheating', de: 'Betrug', 'pt-BR': 'Trapaça' };
    expect(loadPolicy(file('languages.json', JSON.stringify({ ...DEFAULT_POLICY, categories: { other: { severity: 1, sla: 'PT1H', clause: 'x', publicDescription: texts } } }))).categories['other']!.publicDescription).toEqual(texts);
    // Appeals stay open at least six months (DSA Article 20); absent, the defaults apply.
    expect(bad({ appeals: { window: 'P90D' } })).toThrow(/^appeals\.window: must be an ISO 8601 duration of at least P180D/);
    expect(bad({ appeals: { window: 'P179D' } })).toThrow(/^appeals\.window/);
    expect(loadPolicy(file('year.json', JSON.stringify({ ...DEFAULT_POLICY, appeals: { window: 'P1Y', sla: 'P2D' } }))).appeals).toEqual({ window: 'P1Y', sla: 'P2D' });
    expect(loadPolicy(file('appeals.json', JSON.stringify({ ...DEFAULT_POLICY, appeals: { window: 'P365D' } }))).appeals).toEqual({ window: 'P365D', sla: 'P7D' });
    const { appeals: _omitted, ...withoutAppeals } = DEFAULT_POLICY;
    expect(loadPolicy(file('no-appeals.json', JSON.stringify(withoutAppeals))).appeals).toEqual({ window: 'P180D', sla: 'P7D' });
    expect(() => loadPolicy(file('broken.json', '{'))).toThrow(/is not valid JSON/);
    expect(() => loadPolicy(join(dir, 'missing.json'))).toThrow(/cannot read/);
  });

  it('retention: a duration per kind of personal data, each with its default; a bad one names its field', () => {
    const load = (name: string, retention?: unknown) => {
      const { retention: _default, ...rest } = DEFAULT_POLICY;
      return loadPolicy(file(name, JSON.stringify(retention === undefined ? rest : { ...rest, retention })));
    };
    // Absent (every policy file written before it): the defaults.
    expect(load('no-retention.json').retention).toEqual(DEFAULT_RETENTION);
    expect(DEFAULT_RETENTION).toEqual({ directoryNames: 'P180D', reportText: 'P1Y', reporterIdentity: 'P1Y', caseMessages: 'P90D', dismissedCases: 'P90D', appealStatements: 'P1Y', auditEntries: 'P3Y' });
    expect(retentionMsOf(DEFAULT_POLICY)).toEqual({
      directoryNames: 180 * 86_400_000,
      reportText: 365 * 86_400_000,
      reporterIdentity: 365 * 86_400_000,
      caseMessages: 90 * 86_400_000,
      dismissedCases: 90 * 86_400_000,
      appealStatements: 365 * 86_400_000,
      auditEntries: 3 * 365 * 86_400_000,
      // An erased player's id: the ladder's lookback (P1Y by default) after their last sanction.
      erasedPlayers: 365 * 86_400_000,
    });
    // One kind set, the rest their defaults; zero, weeks and seconds (tests) allowed.
    const some = load('some.json', { reportText: 'P30D', dismissedCases: 'P0D', caseMessages: 'P2W', auditEntries: 'PT1S' });
    expect(some.retention).toEqual({ ...DEFAULT_RETENTION, reportText: 'P30D', dismissedCases: 'P0D', caseMessages: 'P2W', auditEntries: 'PT1S' });
    expect(retentionMsOf(some)).toMatchObject({ reportText: 30 * 86_400_000, dismissedCases: 0, caseMessages: 14 * 86_400_000, auditEntries: 1_000 });
    for (const [field, value] of [
      ['reportText', 'a year'],
      ['directoryNames', 'P6M'],
      ['reporterIdentity', '-P1D'],
      ['appealStatements', 365],
      ['auditEntries', 'P'],
    ] as const) {
      expect(() => load(`bad-${field}.json`, { [field]: value }), field).toThrow(new RegExp(`^retention\\.${field}: must be an ISO 8601 duration such as P90D`));
    }
    expect(() => load('unknown-kind.json', { chatLogs: 'P1D' })).toThrow(/^retention: .*chatLogs/);
    // evidence.retention stays where it was, apart from this section.
    expect(load('both.json', { reportText: 'P1D' }).evidence).toEqual({ retention: 'P90D' });
  });

  it('evidence.retention: how long kept evidence lives after the decision (default P90D; zero and years allowed)', () => {
    const load = (name: string, evidence?: unknown) => {
      const { evidence: _default, ...rest } = DEFAULT_POLICY;
      return loadPolicy(file(name, JSON.stringify(evidence === undefined ? rest : { ...rest, evidence })));
    };
    expect(load('no-evidence.json').evidence).toEqual({ retention: 'P90D' });
    expect(evidenceRetentionMs(DEFAULT_POLICY)).toBe(90 * 86_400_000);
    expect(evidenceRetentionMs(load('zero.json', { retention: 'P0D' }))).toBe(0);
    expect(evidenceRetentionMs(load('weeks.json', { retention: 'P12W' }))).toBe(84 * 86_400_000);
    expect(evidenceRetentionMs(load('years.json', { retention: 'P2Y' }))).toBe(730 * 86_400_000);
    expect(load('empty.json', {}).evidence).toEqual({ retention: 'P90D' });
    for (const retention of ['90', 'P1M', 'ninety days', '-P1D', 'P']) {
      expect(() => load(`bad-${retention.replace(/\W/g, '_')}.json`, { retention }), retention).toThrow(/^evidence\.retention: must be an ISO 8601 duration such as P90D/);
    }
    expect(() => load('extra.json', { retention: 'P1D', days: 3 })).toThrow(/^evidence/);
  });

  it('policyFromEnv: the default when TRIAGE_POLICY is unset, a ConfigError naming TRIAGE_POLICY when bad', () => {
    expect(policyFromEnv({})).toEqual(DEFAULT_POLICY);
    const path = file('env.json', JSON.stringify({ ...DEFAULT_POLICY, weights: { severity: 1 } }));
    try {
      policyFromEnv({ TRIAGE_POLICY: path });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).lines).toEqual([expect.stringMatching(/^TRIAGE_POLICY: weights\.reporters: .*\(got ".*env\.json"\)$/)]);
    }
  });
});

describe('queue settings from the policy', () => {
  it('claim TTL, SLA per category (the default category’s for others), a case’s most severe category', () => {
    const s = queueSettingsOf(DEFAULT_POLICY);
    expect(s.claimTtlMs).toBe(30 * 60_000);
    expect(s.slaMs('cheating')).toBe(4 * 3_600_000);
    expect(s.slaMs('unknown')).toBe(24 * 3_600_000);
    expect(caseCategory(DEFAULT_POLICY, { categories: ['spam', 'cheating', 'griefing'] })).toBe('cheating');
    expect(caseCategory(DEFAULT_POLICY, null)).toBe('other');
  });

  it('the ladder: steps climbed per category by offences within the lookback, the last step repeated; lifted and scheduled ones not counted', () => {
    const policy = TriagePolicy.parse({
      ...DEFAULT_POLICY,
      kinds: { voice: { label: 'No voice chat', blocksLogin: false } },
      ladder: { lookback: 'P30D', steps: { harassment: [{ kind: 'warning' }, { kind: 'chat', duration: 'P1D' }, { kind: 'ban' }] } },
    });
    expect(kindsOf(policy).voice).toEqual({ label: 'No voice chat', blocksLogin: false });
    expect(kindsOf(policy).ban!.blocksLogin).toBe(true);
    const now = 100 * 86_400_000;
    const s = (category: string, state: SanctionRecord['state'], daysAgo: number) => ({ category, state, createdAt: now - daysAgo * 86_400_000, effectiveAt: null });
    expect(proposeStep(policy, 'harassment', [], now)).toEqual({ kind: 'warning', duration: null, durationMs: null, offences: 0, step: 1, category: 'harassment' });
    expect(proposeStep(policy, 'harassment', [s('harassment', 'expired', 3)], now)).toMatchObject({ kind: 'chat', duration: 'P1D', durationMs: 86_400_000, step: 2 });
    const many = [s('harassment', 'active', 1), s('harassment', 'expired', 2), s('harassment', 'active', 3)];
    expect(proposeStep(policy, 'harassment', many, now)).toMatchObject({ kind: 'ban', durationMs: null, offences: 3, step: 3 });
    // Lifted, scheduled, other categories, and older than the lookback do not count.
    const ignored = [s('harassment', 'lifted', 1), s('harassment', 'scheduled', 1), s('cheating', 'active', 1), s('harassment', 'expired', 31), s('harassment', 'expired', 30)];
    expect(proposeStep(policy, 'harassment', ignored, now)).toMatchObject({ offences: 1, step: 2 });
    // A category without a ladder: a permanent ban, as approvals always were.
    expect(proposeStep(policy, 'cheating', [], now)).toEqual({ kind: 'ban', duration: null, durationMs: null, offences: 0, step: null, category: 'cheating' });
    expect(lookbackMs('P1Y')).toBe(365 * 86_400_000);
  });
});

describe('docs/triage.md', () => {
  const doc = readFileSync(join(import.meta.dirname, '../../../docs/triage.md'), 'utf8');
  const minimal = /The smallest valid file:\n\n```yaml\n([\s\S]*?)```/.exec(doc)![1]!;

  it('its smallest valid file loads, with the defaults of what it leaves out', () => {
    const policy = loadPolicy(file('minimal.yaml', minimal));
    expect(Object.keys(policy.categories)).toEqual(['other']);
    expect(policy.rules).toEqual([]);
    expect(policy.appeals).toEqual({ window: 'P180D', sla: 'P7D' });
  });

  it('leaving out a field without a default, or adding an unknown one, is refused with its name', () => {
    expect(() => loadPolicy(file('no-claim-ttl.yaml', minimal.replace(/^claimTtl:.*$/m, '')))).toThrow(/claimTtl/);
    expect(() => loadPolicy(file('typo.yaml', `${minimal}claimTTL: PT1H\n`))).toThrow(/claimTTL/);
  });
});

