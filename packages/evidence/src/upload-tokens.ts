import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signedFields } from '@rm/runtime';

/** What a token vouches for: this upload, of this type and size. `purpose` keeps a PUT token from being cited, and back. */
export interface UploadClaim {
  uploadId: string;
  contentType: string;
  size: number;
  /** Epoch ms after which the token is refused. */
  expiresAt: number;
  purpose: 'put' | 'cite';
}

export type TokenCheck = { ok: true; claim: UploadClaim } | { ok: false; why: 'forged' | 'expired' };

/**
 * Signed, expiring upload tokens: the claim as base64url JSON, a dot, its HMAC-SHA256. Nothing
 * is stored: the signature is the proof the service issued it.
 */
export function uploadTokens(secret: string) {
  const tokens = signedFields(secret);
  return {
    issue(claim: UploadClaim): string {
      return tokens.seal([claim.uploadId, claim.contentType, claim.size, claim.expiresAt, claim.purpose]);
    },
    check(token: string, purpose: UploadClaim['purpose'], now = Date.now()): TokenCheck {
      const fields = tokens.open(token);
      if (!fields || fields.length !== 5) return { ok: false, why: 'forged' };
      const [uploadId, contentType, size, expiresAt, tokenPurpose] = fields as [string, string, number, number, UploadClaim['purpose']];
      if (tokenPurpose !== purpose) return { ok: false, why: 'forged' };
      if (now > expiresAt) return { ok: false, why: 'expired' };
      return { ok: true, claim: { uploadId, contentType, size, expiresAt, purpose: tokenPurpose } };
    },
  };
}
export type UploadTokens = ReturnType<typeof uploadTokens>;

/**
 * EVIDENCE_TOKEN_SECRET, or the key kept in DATA_DIR/evidence-token.key, made on first use (owner
 * read/write only). Every process sharing DATA_DIR then signs and checks with the same key.
 */
export function tokenSecret(config: { EVIDENCE_TOKEN_SECRET?: string | undefined; DATA_DIR: string }): string {
  if (config.EVIDENCE_TOKEN_SECRET !== undefined) return config.EVIDENCE_TOKEN_SECRET;
  const file = join(config.DATA_DIR, 'evidence-token.key');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(config.DATA_DIR, { recursive: true });
  // Written whole to a file of our own, then linked into place: of two processes starting at
  // once, one links its key and the other, finding it there, reads that one.
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temp, randomBytes(32).toString('hex'), { mode: 0o600 });
  try {
    linkSync(temp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(temp);
  }
  return readFileSync(file, 'utf8').trim();
}
