import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AppError, UPLOAD_URL_SCHEME, type UploadResponse } from '@rm/contracts';
import type { BlobStore, UploadTokens } from '@rm/evidence';

export interface EvidenceDeps {
  blobs: BlobStore;
  tokens: UploadTokens;
  /** EVIDENCE_MAX_BYTES: the largest upload or kept copy. */
  maxBytes: number;
  /** EVIDENCE_UPLOAD_TTL_S: how long an upload URL may be used. */
  uploadTtlS: number;
}

/** Bytes past the declared size still read (and dropped) before the connection is cut. */
const OVERRUN_READ_BYTES = 1024 * 1024;

/** A cited upload must be cited within this long (uncited uploads are deleted after a day). */
const CITE_WITHIN_MS = 86_400_000;

/**
 * POST /v1/evidence/uploads: an upload id, the URL to PUT the bytes to (a presigned S3 URL when
 * the S3 store is on, else the gateway's own with a signed token) and the URL to cite.
 */
export async function startUpload(deps: EvidenceDeps, body: { contentType: string; size: number }, origin: string, now = Date.now()): Promise<UploadResponse> {
  if (body.size > deps.maxBytes) {
    throw new AppError('BAD_REQUEST', `size is over the limit of ${deps.maxBytes} bytes`, [{ field: 'size', message: `size must be at most ${deps.maxBytes} bytes` }]);
  }
  const uploadId = randomUUID();
  const expiresAt = now + deps.uploadTtlS * 1000;
  const claim = { uploadId, contentType: body.contentType, size: body.size };
  const presigned = await deps.blobs.presignUpload(uploadId, body.contentType, body.size, deps.uploadTtlS);
  const uploadUrl = presigned ?? `${origin}/v1/evidence/uploads/${deps.tokens.issue({ ...claim, expiresAt, purpose: 'put' })}`;
  const evidenceUrl = `${UPLOAD_URL_SCHEME}${deps.tokens.issue({ ...claim, expiresAt: now + CITE_WITHIN_MS, purpose: 'cite' })}`;
  return { success: true, uploadUrl, method: 'PUT', evidenceUrl, expiresAt };
}

/**
 * PUT /v1/evidence/uploads/{token}: the token is the credential (signed, expiring, for one upload
 * of one type and size). The body is counted while it arrives: more than declared stops it.
 */
export async function receiveUpload(deps: EvidenceDeps, token: string, contentType: string | undefined, body: Readable): Promise<void> {
  const checked = deps.tokens.check(token, 'put');
  if (!checked.ok) throw new AppError('FORBIDDEN', checked.why === 'expired' ? 'This upload URL has expired' : 'This upload URL is not valid');
  const { uploadId, size } = checked.claim;
  const essence = contentType?.split(';')[0]?.trim().toLowerCase();
  if (essence !== checked.claim.contentType) throw new AppError('BAD_REQUEST', `Content-Type must be ${checked.claim.contentType}, as declared`);
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of body) {
    received += (chunk as Buffer).length;
    // A little over is read and dropped, so the client gets its 400 instead of a cut connection;
    // far over, the connection is cut.
    if (received > size + OVERRUN_READ_BYTES) body.destroy();
    if (received <= size) chunks.push(chunk as Buffer);
  }
  if (received > size) throw new AppError('BAD_REQUEST', `Upload body too large: the limit is the ${size} bytes declared`);
  if (received !== size) throw new AppError('BAD_REQUEST', `Upload body has ${received} bytes: ${size} were declared`);
  await deps.blobs.putUpload(uploadId, Buffer.concat(chunks, received));
}
