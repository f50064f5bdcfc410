import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { dirname, join } from 'node:path';
import { assertSha256, assertUploadId, blobPath, isUploadId, type BlobStore } from './blob-store.js';

const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Writes through a temporary file and a rename, so a reader never sees half a file; a body that
 * fails midway leaves nothing behind.
 */
async function writeAtomically(path: string, bytes: Buffer | Readable): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${randomUUID()}.part`;
  try {
    await (Buffer.isBuffer(bytes) ? writeFile(temp, bytes) : pipeline(bytes, createWriteStream(temp)));
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** The embedded blob store: a folder (`<DATA_DIR>/evidence` by default). */
export function createFilesystemBlobStore(root: string): BlobStore {
  const blobFile = (sha256: string) => join(root, blobPath(sha256));
  const uploadsDir = join(root, 'uploads');
  const uploadFile = (uploadId: string) => join(uploadsDir, uploadId);
  return {
    kind: 'filesystem',
    async putBlob(bytes) {
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const path = blobFile(sha256);
      const there = await stat(path).then(
        (s) => s.size === bytes.length,
        () => false,
      );
      if (!there) await writeAtomically(path, bytes);
      return { sha256, size: bytes.length };
    },
    async getBlob(sha256) {
      assertSha256(sha256);
      return readFile(blobFile(sha256)).catch((err: unknown) => {
        if (missing(err)) return null;
        throw err;
      });
    },
    async hasBlob(sha256) {
      assertSha256(sha256);
      return stat(blobFile(sha256)).then(
        () => true,
        (err: unknown) => {
          if (missing(err)) return false;
          throw err;
        },
      );
    },
    async deleteBlob(sha256) {
      assertSha256(sha256);
      await rm(blobFile(sha256), { force: true });
    },
    async putUpload(uploadId, body) {
      assertUploadId(uploadId);
      await writeAtomically(uploadFile(uploadId), body);
    },
    async readUpload(uploadId, maxBytes) {
      assertUploadId(uploadId);
      let handle;
      try {
        handle = await open(uploadFile(uploadId), 'r');
      } catch (err) {
        if (missing(err)) return 'missing';
        throw err;
      }
      try {
        if ((await handle.stat()).size > maxBytes) return 'too_large';
        return await handle.readFile();
      } finally {
        await handle.close();
      }
    },
    async deleteUpload(uploadId) {
      assertUploadId(uploadId);
      await rm(uploadFile(uploadId), { force: true });
    },
    async uploadsBefore(before, limit) {
      const names = await readdir(uploadsDir).catch((err: unknown) => {
        if (missing(err)) return [] as string[];
        throw err;
      });
      const found: string[] = [];
      for (const name of names) {
        if (found.length >= limit) break;
        if (!isUploadId(name)) continue;
        const info = await stat(uploadFile(name)).catch(() => null);
        if (info && info.mtimeMs < before) found.push(name);
      }
      return found;
    },
    async presignUpload() {
      return null;
    },
    async close() {
      return undefined;
    },
  };
}
