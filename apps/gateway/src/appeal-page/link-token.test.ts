import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { appealLinkTokens } from './link-token.js';

const SECRET = 'x'.repeat(32);
const claim = { sanctionId: '0193-sanction', userId: '42', expiresAt: 2_000 };

describe('appeal link tokens', () => {
  const tokens = appealLinkTokens(SECRET);

  it('a token names its sanction and player until it expires', () => {
    const token = tokens.issue(claim);
    expect(token).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(tokens.check(token, 2_000)).toEqual({ ok: true, claim });
    expect(tokens.check(token, 2_001)).toEqual({ ok: false, why: 'expired' });
  });

  it('refuses a changed claim or signature, another key, and what is not a token', () => {
    const [body, signature] = tokens.issue(claim).split('.') as [string, string];
    const other = Buffer.from(JSON.stringify(['appeal-link/1', 'another', '42', 2_000])).toString('base64url');
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [`${other}.${signature}`, `${body}.${flipped}`, `${body}.${signature}.x`, body, '', '..', 'a.b']) {
      expect(tokens.check(bad, 0), bad).toEqual({ ok: false, why: 'forged' });
    }
    expect(appealLinkTokens('y'.repeat(32)).check(`${body}.${signature}`, 0)).toEqual({ ok: false, why: 'forged' });
  });

  it("a well-signed claim of another shape is refused: another format's, or fields of the wrong types", () => {
    const signed = (fields: unknown) => {
      const body = Buffer.from(JSON.stringify(fields)).toString('base64url');
      return `${body}.${createHmac('sha256', SECRET).update(body).digest('base64url')}`;
    };
    expect(tokens.check(signed(['appeal-link/1', 's', '42', 2_000]), 0)).toMatchObject({ ok: true });
    for (const fields of [['upload', 's', '42', 2_000], ['appeal-link/1', 's', 42, 2_000], ['appeal-link/1', 's', '42', '2000'], ['appeal-link/1', 's', '42'], { sanctionId: 's' }]) {
      expect(tokens.check(signed(fields), 0), JSON.stringify(fields)).toEqual({ ok: false, why: 'forged' });
    }
  });
});
