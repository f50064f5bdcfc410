import { createHash, randomUUID } from 'node:crypto';
import { pipeline, Transform, type Readable } from 'node:stream';
import { AppError, UPLOAD_URL_SCHEME, type UploadResponse } from '@rm/contracts';
import type { BlobStore, UploadReceipts, UploadTokens } from '@rm/evidence';
import type { UploadGate } from './upload-gate.js';

export interface EvidenceDeps {
  blobs: BlobStore;
  tokens: UploadTokens;
  /** One PUT per upload URL, and the hash of what it stored. */
  receipts: UploadReceipts;
  /** Uploads received at once, and started per address. */
  gate: UploadGate;
  /** PUBLIC_BASE_URL: the origin of the links handed out; unset, the request's own. */
  publicBaseUrl: string | undefined;
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
  const uploadUrl = presigned ?? `${deps.publicBaseUrl ?? origin}/v1/evidence/uploads/${deps.tokens.issue({ ...claim, expiresAt, purpose: 'put' })}`;
  const evidenceUrl = `${UPLOAD_URL_SCHEME}${deps.tokens.issue({ ...claim, expiresAt: now + CITE_WITHIN_MS, purpose: 'cite' })}`;
  return { success: true, uploadUrl, method: 'PUT', evidenceUrl, expiresAt };
}

/** What a request stream fails with when its client goes away mid-body. */
const CUT_SHORT = new Set(['ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE']);

/** Thrown from inside the upload's stream when the body is not the size declared. */
class WrongSize extends Error {}

/**
 * Counts and hashes the body as it passes to the blob store. Bytes past the declared size are
 * dropped: a little over is read, so the client gets its 400 instead of a cut connection; far
 * over, the connection is cut. A body of the wrong size fails the store's write (nothing is kept).
 */
function measured(body: Readable, size: number) {
  const hash = createHash('sha256');
  const tooLarge = () => new WrongSize(`Upload body too large: the limit is the ${size} bytes declared`);
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const room = size - received;
      received += chunk.length;
      if (received > size + OVERRUN_READ_BYTES) return done(tooLarge());
      if (room <= 0) return done();
      const kept = chunk.length <= room ? chunk : chunk.subarray(0, room);
      hash.update(kept);
      done(null, kept);
    },
    flush(done) {
      if (received > size) return done(tooLarge());
      if (received !== size) return done(new WrongSize(`Upload body has ${received} bytes: ${size} were declared`));
      done();
    },
  });
  // A body cut short or failing fails the counter too, and so the store's write.
  pipeline(body, counter, () => undefined);
  return { stream: counter, sha256: () => hash.digest('hex') };
}

/**
 * PUT /v1/evidence/uploads/{token}: the token is the credential (signed, expiring, for one upload
 * of one type and size), good for one PUT (UploadReceipts). The body streams to the blob store,
 * counted and hashed on the way: memory stays flat whatever the size.
 */
export async function receiveUpload(deps: EvidenceDeps, token: string, contentType: string | undefined, body: Readable, now = Date.now()): Promise<void> {
  const checked = deps.tokens.check(token, 'put', now);
  if (!checked.ok) throw new AppError('FORBIDDEN', checked.why === 'expired' ? 'This upload URL has expired' : 'This upload URL is not valid');
  const { uploadId, size, expiresAt } = checked.claim;
  const essence = contentType?.split(';')[0]?.trim().toLowerCase();
  if (essence !== checked.claim.contentType) throw new AppError('BAD_REQUEST', `Content-Type must be ${checked.claim.contentType}, as declared`);
  const mark = await deps.receipts.begin(uploadId, expiresAt);
  if (mark === null) throw new AppError('FORBIDDEN', 'This upload URL has been used: ask for a new one');
  const bytes = measured(body, size);
  try {
    await deps.blobs.putUpload(uploadId, bytes.stream, size);
  } catch (err) {
    await deps.receipts.abandon(uploadId, mark);
    if (err instanceof WrongSize) throw new AppError('BAD_REQUEST', err.message);
    // The client went away mid-body (its network's doing, not an internal fault); a store that
    // failed (a full disk) stays a 500.
    if (CUT_SHORT.has((err as NodeJS.ErrnoException).code ?? '')) throw new AppError('BAD_REQUEST', 'The upload body was cut short');
    throw err;
  }
  await deps.receipts.stored(uploadId, bytes.sha256(), expiresAt + CITE_WITHIN_MS);
}
