import { createHash } from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { assertSha256, assertUploadId, blobPath, isUploadId, type BlobStore } from './blob-store.js';

export interface S3BlobStoreOptions {
  bucket: string;
  /** Every key starts with it (`evidence/` by default), so the bucket can be shared. */
  keyPrefix: string;
  region: string;
  /** An S3-compatible endpoint (MinIO, Ceph, a local server); unset: AWS. */
  endpoint?: string;
  /** Path-style URLs (`endpoint/bucket/key`), which most S3-compatible servers need. */
  forcePathStyle: boolean;
  /** Unset: the SDK's default chain (environment, profile, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

const notFound = (err: unknown) =>
  err instanceof S3ServiceException && (err.name === 'NotFound' || err.name === 'NoSuchKey' || err.$metadata.httpStatusCode === 404);

/** Kept copies and uploads in an S3 bucket, through @aws-sdk/client-s3. */
export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const client = new S3Client({
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    ...(options.endpoint !== undefined && { endpoint: options.endpoint }),
    ...(options.credentials !== undefined && { credentials: options.credentials }),
    // The SDK's default checksums (CRC32 on every PUT, validation on every GET) break
    // S3-compatible servers and presigned uploads, whose body the presigner cannot see: only
    // where an operation requires one. Our own SHA-256 checks the bytes anyway.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = options.bucket;
  const blobKey = (sha256: string) => `${options.keyPrefix}${blobPath(sha256)}`;
  const uploadsPrefix = `${options.keyPrefix}uploads/`;
  const uploadKey = (uploadId: string) => `${uploadsPrefix}${uploadId}`;

  async function read(Key: string): Promise<Buffer | null> {
    try {
      const got = await client.send(new GetObjectCommand({ Bucket, Key }));
      return Buffer.from(await got.Body!.transformToByteArray());
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }
  async function exists(Key: string): Promise<number | null> {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key }));
      return head.ContentLength ?? 0;
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  return {
    kind: 's3',
    async putBlob(bytes) {
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const Key = blobKey(sha256);
      if ((await exists(Key)) !== bytes.length) await client.send(new PutObjectCommand({ Bucket, Key, Body: bytes, ContentLength: bytes.length }));
      return { sha256, size: bytes.length };
    },
    async getBlob(sha256) {
      assertSha256(sha256);
      return read(blobKey(sha256));
    },
    async hasBlob(sha256) {
      assertSha256(sha256);
      return (await exists(blobKey(sha256))) !== null;
    },
    async deleteBlob(sha256) {
      assertSha256(sha256);
      // One DeleteObject per key: DeleteObjects always sends a checksum, which some compatible servers refuse.
      await client.send(new DeleteObjectCommand({ Bucket, Key: blobKey(sha256) }));
    },
    async putUpload(uploadId, body, size) {
      assertUploadId(uploadId);
      // A body that fails midway aborts the request (the SDK would wait on it): S3 stores an
      // object whole or not at all.
      const abort = new AbortController();
      let failure: unknown;
      body.once('error', (err) => {
        failure = err;
        abort.abort(err);
      });
      try {
        await client.send(new PutObjectCommand({ Bucket, Key: uploadKey(uploadId), Body: body, ContentLength: size }), { abortSignal: abort.signal });
      } catch (err) {
        throw failure ?? err;
      }
    },
    async readUpload(uploadId, maxBytes) {
      assertUploadId(uploadId);
      const size = await exists(uploadKey(uploadId));
      if (size === null) return 'missing';
      if (size > maxBytes) return 'too_large';
      const bytes = await read(uploadKey(uploadId));
      if (bytes === null) return 'missing';
      // Replaced between the two requests: the bytes read are what is judged.
      return bytes.length > maxBytes ? 'too_large' : bytes;
    },
    async deleteUpload(uploadId) {
      assertUploadId(uploadId);
      await client.send(new DeleteObjectCommand({ Bucket, Key: uploadKey(uploadId) }));
    },
    async uploadsBefore(before, limit) {
      const found: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: uploadsPrefix, ...(ContinuationToken !== undefined && { ContinuationToken }) }));
        for (const object of page.Contents ?? []) {
          const id = object.Key?.slice(uploadsPrefix.length) ?? '';
          if (found.length < limit && isUploadId(id) && (object.LastModified?.getTime() ?? Infinity) < before) found.push(id);
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken !== undefined && found.length < limit);
      return found;
    },
    async presignUpload(uploadId, contentType, size, expiresInSeconds) {
      assertUploadId(uploadId);
      // Content-Type and Content-Length are signed: S3 refuses an upload of another type or size.
      return getSignedUrl(client, new PutObjectCommand({ Bucket, Key: uploadKey(uploadId), ContentType: contentType, ContentLength: size }), {
        expiresIn: expiresInSeconds,
        signableHeaders: new Set(['content-type', 'content-length']),
      });
    },
    async close() {
      client.destroy();
    },
  };
}
