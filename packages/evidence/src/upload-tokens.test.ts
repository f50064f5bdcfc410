import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tokenSecret, uploadTokens } from './upload-tokens.js';

const claim = { uploadId: '0b5e3c9e-4a8b-4e3c-9a55-2f6f7c1a9d10', contentType: 'image/png', size: 68, expiresAt: 10_000, purpose: 'put' as const };

describe('upload tokens', () => {
  const tokens = uploadTokens('a'.repeat(32));

  it('checks back what it issued, until it expires', () => {
    const token = tokens.issue(claim);
    expect(tokens.check(token, 'put', 9_999)).toEqual({ ok: true, claim });
    expect(tokens.check(token, 'put', 10_001)).toEqual({ ok: false, why: 'expired' });
  });

  it('refuses a token changed anywhere, signed with another key, or used for the other purpose', () => {
    const token = tokens.issue(claim);
    const [body, signature] = token.split('.') as [string, string];
    const bigger = Buffer.from(JSON.stringify([claim.uploadId, claim.contentType, 10_000_000, claim.expiresAt, 'put'])).toString('base64url');
    expect(tokens.check(`${bigger}.${signature}`, 'put', 0)).toEqual({ ok: false, why: 'forged' });
    expect(tokens.check(`${body}.${signature.slice(0, -1)}A`, 'put', 0).ok).toBe(false);
    expect(tokens.check(`${body}`, 'put', 0)).toEqual({ ok: false, why: 'forged' });
    expect(tokens.check(`${token}.x`, 'put', 0)).toEqual({ ok: false, why: 'forged' });
    expect(uploadTokens('b'.repeat(32)).check(token, 'put', 0)).toEqual({ ok: false, why: 'forged' });
    expect(tokens.check(token, 'cite', 0)).toEqual({ ok: false, why: 'forged' });
  });
});

describe('tokenSecret', () => {
  it('uses EVIDENCE_TOKEN_SECRET when set, else makes one key in DATA_DIR, owner-only, and keeps it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rm-token-'));
    try {
      expect(tokenSecret({ EVIDENCE_TOKEN_SECRET: 's'.repeat(40), DATA_DIR: dir })).toBe('s'.repeat(40));
      const made = tokenSecret({ DATA_DIR: dir });
      expect(made).toMatch(/^[0-9a-f]{64}$/);
      expect(tokenSecret({ DATA_DIR: dir })).toBe(made);
      expect(statSync(join(dir, 'evidence-token.key')).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
