import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API key credentials. The secret is 256 random bits, so a plain SHA-256 is enough to store it
 * (no dictionary to guard against) and keeps verification cheap on the hot path.
 */
export function generateCredentials(): { key: string; secret: string } {
  return { key: `rk_${randomBytes(12).toString('hex')}`, secret: randomBytes(32).toString('base64url') };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented secret with the stored hash (hex of 32 bytes). */
export function secretMatches(secret: string, storedHash: string): boolean {
  const expected = Buffer.from(storedHash, 'hex');
  // Buffer.from stops at the first non-hex character: anything but 64 hex digits is refused.
  if (expected.length !== 32 || storedHash.length !== 64) return false;
  // The one-shot hash: no Hash object per request (Node 20.12+).
  return timingSafeEqual(hash('sha256', secret, 'buffer'), expected);
}

/** `Authorization: <key>:<secret>`; null when the header is missing or not of that form. */
export function parseAuthorization(header: string | undefined): { key: string; secret: string } | null {
  if (!header) return null;
  const colon = header.indexOf(':');
  if (colon < 0) return null;
  const key = header.slice(0, colon).trim();
  const secret = header.slice(colon + 1).trim();
  return key && secret ? { key, secret } : null;
}
