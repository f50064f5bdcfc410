import { parseIsoDuration } from '@rm/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, loadConfig } from './config.js';
import { categoryOf, DEFAULT_CATEGORY, queuePolicy, queuePolicyShape } from './queue-policy.js';

const schema = z.object(queuePolicyShape);

describe('parseIsoDuration', () => {
  it.each([
    ['PT30M', 30 * 60_000],
    ['PT1H', 3_600_000],
    ['P7D', 7 * 86_400_000],
    ['P2W', 14 * 86_400_000],
    ['P1DT2H3M4S', 86_400_000 + 2 * 3_600_000 + 3 * 60_000 + 4_000],
    ['PT2.5S', 2_500],
    ['PT0,5S', 500],
  ])('%s is %d ms', (text, ms) => expect(parseIsoDuration(text)).toBe(ms));

  it.each(['', 'P', 'PT', 'P1DT', '7D', 'P1Y', 'P1M', 'PT1.5H', 'P1W2D', '-P1D', ' PT1H', 'pt1h'])('refuses %j', (text) => {
    expect(parseIsoDuration(text)).toBeNull();
  });
});

describe('queue policy settings', () => {
  it('defaults: claims last 30 minutes, every category has a 1 hour SLA', () => {
    const policy = queuePolicy(loadConfig(schema, {}));
    expect(policy.claimTtlMs).toBe(30 * 60_000);
    expect(policy.slaMs(DEFAULT_CATEGORY)).toBe(3_600_000);
  });

  it('SLA_BY_CATEGORY overrides SLA for the categories it names', () => {
    const policy = queuePolicy(loadConfig(schema, { CLAIM_TTL: 'PT5S', SLA: 'PT2H', SLA_BY_CATEGORY: '{"threat":"PT15M"}' }));
    expect(policy.claimTtlMs).toBe(5_000);
    expect(policy.slaMs('threat')).toBe(15 * 60_000);
    expect(policy.slaMs('cheating')).toBe(2 * 3_600_000);
  });

  it.each([
    [{ CLAIM_TTL: '30m' }, /CLAIM_TTL/],
    [{ SLA: 'PT0S' }, /SLA/],
    [{ SLA_BY_CATEGORY: 'not json' }, /SLA_BY_CATEGORY/],
    [{ SLA_BY_CATEGORY: '["PT1H"]' }, /SLA_BY_CATEGORY/],
    [{ SLA_BY_CATEGORY: '{"threat":"soon"}' }, /SLA_BY_CATEGORY.threat/],
  ])('an invalid value stops the process with a line naming the variable: %j', (env, name) => {
    expect(() => loadConfig(schema, env)).toThrow(ConfigError);
    expect(() => loadConfig(schema, env)).toThrow(name);
  });

  it('every case is uncategorized until the triage policy categorises them', () => {
    expect(categoryOf({ caseId: 'c1', userId: 'u1' })).toBe(DEFAULT_CATEGORY);
  });
});
