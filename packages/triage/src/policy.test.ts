import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '@rm/runtime';
import { caseCategory, DEFAULT_POLICY, durationMs, loadPolicy, policyFromEnv, queueSettingsOf, TriagePolicy } from './index.js';

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
    const yaml = file('p.yaml', `category: {questionId: kind, default: other}\ncategories:\n  other: {severity: 1, sla: PT1H}\nweights: {severity: 1, reporters: 1, agePerHour: 0}\nbrigade: {window: PT1M, minReporters: 3, suspectShare: 0.5, lowCredibility: 0.2}\nclaimTtl: PT10M\nsystemModeratorId: bot\n`);
    expect(loadPolicy(yaml)).toMatchObject({ category: { questionId: 'kind' }, rules: [], systemModeratorId: 'bot' });
  });

  it('names the bad field in one line', () => {
    const bad = (patch: object) => () => loadPolicy(file('bad.json', JSON.stringify({ ...DEFAULT_POLICY, ...patch })));
    expect(bad({ claimTtl: '30 minutes' })).toThrow(/^claimTtl: must be a positive ISO 8601 duration/);
    expect(bad({ categories: { other: { severity: -1, sla: 'PT1H' } } })).toThrow(/^categories\.other\.severity: must be at least 0$/);
    expect(bad({ category: { questionId: 'q', default: 'nope' } })).toThrow(/^category\.default: names no category/);
    expect(bad({ extra: 1 })).toThrow(/extra/);
    const rule = { id: 'r1', category: 'cheating', minReporters: 2, minCredibility: 0.5, window: 'PT1H', action: { type: 'escalate', boost: 10 } };
    expect(bad({ rules: [rule, rule] })).toThrow(/^rules\.1\.id: duplicate rule id r1$/);
    expect(bad({ rules: [{ ...rule, category: 'unknown' }] })).toThrow(/^rules\.0\.category: names no category/);
    expect(bad({ rules: [{ ...rule, action: { type: 'sanction', duration: 'P1M' } }] })).toThrow(/^rules\.0\.action\.duration: must be a positive ISO 8601 duration/);
    expect(bad({ rules: [{ ...rule, action: { type: 'mute' } }] })).toThrow(/^rules\.0\.action/);
    expect(() => loadPolicy(file('broken.json', '{'))).toThrow(/is not valid JSON/);
    expect(() => loadPolicy(join(dir, 'missing.json'))).toThrow(/cannot read/);
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
});
