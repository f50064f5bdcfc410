import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { UPLOAD_URL_SCHEME, type CaptureItem } from '@rm/contracts';
import { createRedis, type Redis } from '@rm/runtime';
import type { Store } from '@rm/storage';
import { openSqliteStore } from '@rm/storage-sqlite';
import { parseAllowList } from './address-guard.js';
import { createFilesystemBlobStore } from './filesystem-blob-store.js';
import { guardedFetch, type Fetched } from './guarded-fetch.js';
import { noHashLock, redisHashLock } from './hash-lock.js';
import { keepEvidence, keepItems, type KeepDeps } from './keep-evidence.js';
import { sweepEvidence } from './retention.js';
import { uploadTokens } from './upload-tokens.js';

// Capture and retention against a real SQLite store and filesystem blob store; URLs are fetched
// only from a loopback server (the test allow-list), and names are never resolved.

const root = mkdtempSync(join(tmpdir(), 'rm-keep-'));
let store: Store;
let server: http.Server;
let port: number;
const requests = new Map<string, number>();

beforeAll(async () => {
  store = openSqliteStore(join(root, 'reports.db'));
  server = http.createServer((req, res) => {
    requests.set(req.url ?? '', (requests.get(req.url ?? '') ?? 0) + 1);
    res.writeHead(Number(/^\/status\/(\d{3})$/.exec(req.url ?? '')?.[1] ?? 404)).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await store.close();
  await new Promise((done) => server.close(done));
  rmSync(root, { recursive: true, force: true });
});

const LIMITS = { maxBytes: 64 * 1024, timeoutMs: 2_000, maxRedirects: 3 };
const keepDeps = (overrides: Partial<KeepDeps> = {}): KeepDeps => ({
  store,
  blobs: createFilesystemBlobStore(join(root, 'evidence')),
  fetch: (url) =>
    guardedFetch(url, LIMITS, {
      resolve: () => Promise.reject(new Error('no name is resolved here')),
      allow: parseAllowList(`127.0.0.1:${port}`),
      beforeConnect: (address) => {
        if (address !== '127.0.0.1') throw new Error(`test refuses to connect to ${address}`);
      },
    }),
  tokens: uploadTokens('keep-evidence-test-secret-0123456789abcdef'),
  maxBytes: LIMITS.maxBytes,
  lock: noHashLock,
  uploadHash: async () => null,
  ...overrides,
});
const item = (reportId: string, caseId: string, index: number, url: string): CaptureItem => ({ reportId, caseId, index, url, type: 'url' });

describe('keepItems: a job tried again', () => {
  it('fetches a final failure once: only the item that may pass another time is fetched again', async () => {
    const items = [item('r-final', 'c-final', 0, `http://127.0.0.1:${port}/status/404`), item('r-final', 'c-final', 1, `http://127.0.0.1:${port}/status/500`)];
    // The evidence queue's three attempts, as the worker runs them: only the last records a retryable failure.
    await expect(keepItems(keepDeps(), items, false)).rejects.toThrow(/1 of 2 evidence items to try again/);
    await expect(keepItems(keepDeps(), items, false)).rejects.toThrow(/1 of 2/);
    const settled = await keepItems(keepDeps(), items, true);
    expect(settled.map((i) => [i.index, i.state, i.failure, i.detail])).toEqual([
      [0, 'failed', 'http_status', 'HTTP 404'],
      [1, 'failed', 'http_status', 'HTTP 500'],
    ]);
    expect(requests.get('/status/404')).toBe(1);
    expect(requests.get('/status/500')).toBe(3);
  });
});

describe('a cited upload', () => {
  const tokens = uploadTokens('keep-evidence-test-secret-0123456789abcdef');
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

  it('is kept only while its bytes are those its PUT stored (the hash it recorded), or no hash is known', async () => {
    const blobs = createFilesystemBlobStore(join(root, 'evidence'));
    const stored = Buffer.from('the bytes the PUT stored');
    const cite = async (uploadId: string, bytes: Buffer, recorded: string | null, reportId: string) => {
      await blobs.putUpload(uploadId, Readable.from([bytes]), bytes.length);
      const token = tokens.issue({ uploadId, contentType: 'text/plain', size: bytes.length, expiresAt: Date.now() + 60_000, purpose: 'cite' });
      const job: CaptureItem = { reportId, caseId: `c-${reportId}`, index: 0, url: `${UPLOAD_URL_SCHEME}${token}`, type: 's3Upload' };
      return keepEvidence(keepDeps({ blobs, uploadHash: async (id) => (id === uploadId ? recorded : null) }), job, true);
    };
    const other = Buffer.from('other bytes, same size!!');
    expect(other.length).toBe(stored.length);
    expect(await cite('00000000-0000-4000-8000-00000000000a', other, sha(stored), 'r-changed')).toMatchObject({ state: 'failed', failure: 'upload_changed' });
    expect(await cite('00000000-0000-4000-8000-00000000000b', stored, sha(stored), 'r-same')).toMatchObject({ state: 'captured', sha256: sha(stored) });
    expect(await cite('00000000-0000-4000-8000-00000000000c', other, null, 'r-unknown')).toMatchObject({ state: 'captured', sha256: sha(other) });
  });
});

describe('retention and a capture of the same bytes at once', () => {
  let redis: Redis;
  beforeAll(() => {
    if (!process.env['REDIS_URL']) throw new Error('REDIS_URL is not set: these tests need a real Redis');
    redis = createRedis({ REDIS_URL: process.env['REDIS_URL'] });
  });
  afterAll(() => redis.quit());

  const bytes = Buffer.from(`kept twice ${Date.now()}`);
  const fetched: Fetched = { bytes, contentType: 'text/plain', size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  const report = (id: string) => ({
    id,
    userId: `user-${id}`,
    reporterId: 'reporter-1',
    reporterPlatform: 'gameplatform',
    reportType: null,
    answers: [],
    evidence: [{ url: 'https://example.test/chat.txt', type: 'url', createEvidence: true }],
    receivedAt: Date.now(),
    user: { name: id, displayName: id, avatar: null },
  });

  it('keeps the bytes a capture recorded while the sweep was deleting them', async () => {
    const lock = redisHashLock(redis, `keep-test-${Date.now()}`);
    const blobs = createFilesystemBlobStore(join(root, 'race'));
    const capture = keepDeps({ blobs, lock, fetch: async () => fetched });
    // An old report's copy, its case dismissed: due for deletion.
    const [old, fresh] = await store.saveReports([report('r-old'), report('r-new')]);
    await keepEvidence(capture, item('r-old', old!.caseId, 0, 'https://example.test/chat.txt'), true);
    const dismissed = (await store.getCase(old!.caseId))!;
    await store.transitionCase({
      caseId: dismissed.id,
      expectedVersion: dismissed.version,
      expectedState: dismissed.state,
      next: { state: 'dismissed', claimedBy: null },
      event: { decisionId: 'keep-test-dismiss', action: 'dismiss', moderatorId: 'mod-1', at: Date.now(), result: { ok: true } },
    });

    // The sweep has committed that no item holds the bytes; before it deletes them, a new report
    // keeps the same bytes (given half a second to do it all: write, or find them there, and record).
    let racing: Promise<unknown> = Promise.resolve();
    const sweepBlobs = {
      ...blobs,
      async deleteBlob(sha256: string) {
        racing = keepEvidence(capture, item('r-new', fresh!.caseId, 0, 'https://example.test/chat.txt'), true);
        await Promise.race([racing, new Promise((done) => setTimeout(done, 500))]);
        await blobs.deleteBlob(sha256);
      },
    };
    const swept = await sweepEvidence({ store, blobs: sweepBlobs, lock, now: () => Date.now() + 60_000 }, { retentionMs: 0, batchSize: 500, dryRun: false });
    await racing;

    expect(swept).toMatchObject({ items: [{ reportId: 'r-old', index: 0 }], blobsDeleted: 1 });
    expect((await store.evidenceOfReports(['r-new']))[0]).toMatchObject({ state: 'captured', sha256: fetched.sha256 });
    expect((await blobs.getBlob(fetched.sha256))?.equals(bytes)).toBe(true);
  });
});
