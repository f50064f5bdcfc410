import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from './blob-store.js';
import { describeBlobStoreContract } from './blob-store.contract.js';
import { createS3BlobStore } from './s3-blob-store.js';

// A real S3 API server (s3rver), on 127.0.0.1, with a folder of its own.
const dir = mkdtempSync(join(tmpdir(), 'rm-s3rver-'));
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: 'evidence-test' }] });
let endpoint = '';
const stores: BlobStore[] = [];

beforeAll(async () => {
  const address = (await server.run()) as AddressInfo;
  endpoint = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const open = () => {
  const store = createS3BlobStore({
    bucket: 'evidence-test',
    keyPrefix: 'evidence/',
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  stores.push(store);
  return store;
};

describeBlobStoreContract('s3 (s3rver)', open);

describe('S3 presigned uploads', () => {
  it('a presigned PUT stores the upload where readUpload finds it', async () => {
    const store = open();
    const id = randomUUID();
    const bytes = Buffer.from('presigned upload body');
    const url = await store.presignUpload(id, 'text/plain', bytes.length, 60);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/evidence-test\/evidence\/uploads\//);
    const put = await fetch(url!, { method: 'PUT', body: bytes, headers: { 'content-type': 'text/plain' } });
    expect(put.status).toBe(200);
    expect(((await store.readUpload(id, 1000)) as Buffer).equals(bytes)).toBe(true);
  });

  // s3rver accepted a PUT whose signature was changed: signature checks are S3's, and not tested here.
});
