import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { BlobStore } from './blob-store.js';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** What every BlobStore adapter promises; run once per adapter (filesystem, s3). */
export function describeBlobStoreContract(name: string, open: () => BlobStore) {
  describe(`BlobStore contract: ${name}`, () => {
    it('keeps bytes under their SHA-256 and gives them back unchanged', async () => {
      const store = open();
      const bytes = Buffer.from(`evidence ${randomUUID()}`);
      const kept = await store.putBlob(bytes);
      expect(kept).toEqual({ sha256: sha(bytes), size: bytes.length });
      expect(await store.hasBlob(kept.sha256)).toBe(true);
      expect((await store.getBlob(kept.sha256))?.equals(bytes)).toBe(true);
    });

    it('keeps the same bytes once, however often they are put', async () => {
      const store = open();
      const bytes = Buffer.from(`twice ${randomUUID()}`);
      const first = await store.putBlob(bytes);
      const second = await store.putBlob(bytes);
      expect(second).toEqual(first);
      await store.deleteBlob(first.sha256);
      expect(await store.hasBlob(first.sha256)).toBe(false);
    });

    it('answers null for a copy it does not hold, and deleting one is no error', async () => {
      const store = open();
      const absent = sha(Buffer.from(randomUUID()));
      expect(await store.getBlob(absent)).toBeNull();
      expect(await store.hasBlob(absent)).toBe(false);
      await expect(store.deleteBlob(absent)).resolves.toBeUndefined();
    });

    it('refuses a name that is not a SHA-256 (no path or key is built from it)', async () => {
      const store = open();
      await expect(store.getBlob('../../etc/passwd')).rejects.toThrow(/SHA-256/);
      await expect(store.deleteBlob('ab')).rejects.toThrow(/SHA-256/);
    });

    it('stages uploads by id: read within a cap, too large past it, missing once deleted', async () => {
      const store = open();
      const id = randomUUID();
      const bytes = Buffer.alloc(1000, 7);
      expect(await store.readUpload(id, 10_000)).toBe('missing');
      await store.putUpload(id, Readable.from([bytes]), bytes.length);
      expect(((await store.readUpload(id, 1000)) as Buffer).equals(bytes)).toBe(true);
      expect(await store.readUpload(id, 999)).toBe('too_large');
      await store.deleteUpload(id);
      expect(await store.readUpload(id, 10_000)).toBe('missing');
      await expect(store.putUpload('../x', Readable.from([bytes]), bytes.length)).rejects.toThrow(/upload id/);
    });

    it('keeps nothing of an upload whose body fails midway', async () => {
      const store = open();
      const id = randomUUID();
      async function* failing() {
        yield Buffer.alloc(64 * 1024, 1);
        throw new Error('the body was cut');
      }
      await expect(store.putUpload(id, Readable.from(failing()), 128 * 1024)).rejects.toThrow();
      expect(await store.readUpload(id, 1_000_000)).toBe('missing');
      expect(await store.uploadsBefore(Date.now() + 60_000, 10_000)).not.toContain(id);
    });

    it('lists uploads stored before a time, no more than asked', async () => {
      const store = open();
      const ids = [randomUUID(), randomUUID(), randomUUID()];
      for (const id of ids) await store.putUpload(id, Readable.from([Buffer.from(id)]), Buffer.byteLength(id));
      const later = Date.now() + 60_000;
      const listed = await store.uploadsBefore(later, 1000);
      expect(listed).toEqual(expect.arrayContaining(ids));
      expect(await store.uploadsBefore(later, 2)).toHaveLength(2);
      expect(await store.uploadsBefore(Date.now() - 3_600_000, 1000)).not.toEqual(expect.arrayContaining([ids[0]]));
      for (const id of ids) await store.deleteUpload(id);
    });
  });
}
