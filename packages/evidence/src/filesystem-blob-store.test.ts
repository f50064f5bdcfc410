import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describeBlobStoreContract } from './blob-store.contract.js';
import { createFilesystemBlobStore } from './filesystem-blob-store.js';

const root = mkdtempSync(join(tmpdir(), 'rm-blobs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describeBlobStoreContract('filesystem', () => createFilesystemBlobStore(root));
