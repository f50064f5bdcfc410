import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, loadConfig } from '@rm/runtime';
import { evidenceConfigShape } from './evidence-config.js';

const schema = z.object(evidenceConfigShape);

describe('EVIDENCE_REFUSED_PREFIXES', () => {
  it('is empty unless set, and read as CIDR prefixes', () => {
    expect(loadConfig(schema, {}).EVIDENCE_REFUSED_PREFIXES).toEqual([]);
    expect(loadConfig(schema, { EVIDENCE_REFUSED_PREFIXES: '203.0.113.0/24,2001:db8::/32' }).EVIDENCE_REFUSED_PREFIXES).toHaveLength(2);
  });

  it('stops the process at start naming the variable and the bad prefix', () => {
    let error: unknown;
    try {
      loadConfig(schema, { EVIDENCE_REFUSED_PREFIXES: '203.0.113.0/24, 10.0.0.0/40' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(/EVIDENCE_REFUSED_PREFIXES: not a CIDR prefix: "10\.0\.0\.0\/40"/);
  });
});
