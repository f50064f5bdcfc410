import type { Readable } from 'node:stream';

/**
 * Where kept evidence bytes live. Kept copies are content-addressed: stored under their SHA-256,
 * so the same bytes kept twice take one place, and a copy can be checked against its name.
 * Uploads wait in a staging area of their own, under an id the service chose, until a report
 * cites them (then their bytes are kept by hash) or the uncited-upload sweep deletes them.
 */
export interface BlobStore {
  /** Which adapter this is: `filesystem` or `s3`. */
  readonly kind: 'filesystem' | 's3';
  /** Stores bytes under their SHA-256 (a second put of the same bytes changes nothing). */
  putBlob(bytes: Buffer): Promise<{ sha256: string; size: number }>;
  /** The bytes kept under a SHA-256, or null. */
  getBlob(sha256: string): Promise<Buffer | null>;
  hasBlob(sha256: string): Promise<boolean>;
  /** Deletes a kept copy; deleting one that is not there is no error. */
  deleteBlob(sha256: string): Promise<void>;

  /**
   * Stores the bytes of an upload as they arrive (the gateway's own upload route), `size` of
   * them. A body that fails midway (the caller's checks throw from inside it) leaves nothing.
   */
  putUpload(uploadId: string, body: Readable, size: number): Promise<void>;
  /**
   * The bytes of an upload, or `missing`, or `too_large` when it holds more than `maxBytes`
   * (found from its size without reading it, where the store can tell).
   */
  readUpload(uploadId: string, maxBytes: number): Promise<Buffer | 'missing' | 'too_large'>;
  deleteUpload(uploadId: string): Promise<void>;
  /** Ids of uploads stored before `before` (epoch ms), at most `limit`. */
  uploadsBefore(before: number, limit: number): Promise<string[]>;
  /**
   * A URL the client can PUT the upload to directly, signed for this content type and size and
   * valid `expiresInSeconds`; null when the store takes uploads only through the gateway.
   */
  presignUpload(uploadId: string, contentType: string, size: number, expiresInSeconds: number): Promise<string | null>;
  close(): Promise<void>;
}

/** SHA-256s are 64 lowercase hex digits; anything else never reaches a path or a key. */
export const isSha256 = (value: string) => /^[0-9a-f]{64}$/.test(value);
/** Upload ids are ours (UUIDs or ULIDs): letters, digits and dashes. */
export const isUploadId = (value: string) => /^[A-Za-z0-9-]{8,64}$/.test(value);

export function assertSha256(sha256: string): void {
  if (!isSha256(sha256)) throw new Error(`not a SHA-256: ${JSON.stringify(sha256)}`);
}
export function assertUploadId(uploadId: string): void {
  if (!isUploadId(uploadId)) throw new Error(`not an upload id: ${JSON.stringify(uploadId)}`);
}

/** Where a kept copy lives: `sha256/ab/cd/<hex>` (Git LFS's fan-out, so no folder grows too large). */
export const blobPath = (sha256: string) => `sha256/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
