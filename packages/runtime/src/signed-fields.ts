import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Tokens that carry a few JSON fields, signed with HMAC-SHA256 (`<base64url body>.<signature>`):
 * `seal` makes one, `open` answers its fields, or null when it is malformed or its signature is
 * not ours (compared in constant time). What the fields mean is the caller's to check.
 */
export function signedFields(secret: string) {
  const sign = (body: string) => createHmac('sha256', secret).update(body).digest('base64url');
  return {
    seal(fields: readonly unknown[]): string {
      const body = Buffer.from(JSON.stringify(fields)).toString('base64url');
      return `${body}.${sign(body)}`;
    },
    open(token: string): unknown[] | null {
      const [body, signature, extra] = token.split('.');
      if (!body || !signature || extra !== undefined) return null;
      const expected = Buffer.from(sign(body));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      try {
        const fields: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
        return Array.isArray(fields) ? fields : null;
      } catch {
        return null;
      }
    },
  };
}
