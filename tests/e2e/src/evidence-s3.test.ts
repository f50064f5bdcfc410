import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report, System, type Key } from './harness.js';

// Uploads and kept copies with the S3 store on: a real S3 API server (s3rver) on 127.0.0.1,
// started here. The upload URL is a presigned S3 PUT; the gateway never sees the bytes.

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const s3dir = mkdtempSync(join(tmpdir(), 'rm-e2e-s3-'));
const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3dir, configureBuckets: [{ name: 'evidence-e2e', configs: [] }] });
let sys: System;
let submitter: Key;
let viewer: Key;

beforeAll(async () => {
  const { port } = (await s3.run()) as AddressInfo;
  sys = await System.start({
    apps: ['gateway', 'intake', 'evidence'],
    env: {
      MAX_REPORTS_PER_DAY: '1000',
      EVIDENCE_S3_BUCKET: 'evidence-e2e',
      EVIDENCE_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      EVIDENCE_S3_ACCESS_KEY_ID: 'S3RVER',
      EVIDENCE_S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
  });
  [submitter, viewer] = await Promise.all([sys.createKey(['--permission', 'reports.submit_report']), sys.createKey(['--permission', 'reports.view_reports'])]);
});
afterAll(async () => {
  await sys?.stop();
  await s3.close();
  rmSync(s3dir, { recursive: true, force: true });
});

describe('uploads with the S3 store', () => {
  it('round-trips through a presigned PUT: cited, checked, kept by hash in the bucket, served from our origin; the player\'s erasure deletes it from the bucket', async () => {
    const asked = await sys.post('/v1/evidence/uploads', submitter.auth, { contentType: 'image/png', size: PNG.length });
    expect(asked.status).toBe(200);
    expect(asked.body.uploadUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/evidence-e2e\/evidence\/uploads\/.+X-Amz-Signature=/);
    const put = await fetch(asked.body.uploadUrl, { method: 'PUT', body: PNG, headers: { 'content-type': 'image/png' } });
    expect(put.status).toBe(200);

    await sys.addUser('9500');
    const res = await sys.post('/v1/reports/new', submitter.auth, report('9500', 's3-rep', { evidence: [{ url: asked.body.evidenceUrl, type: 's3Upload' }] }));
    expect(res.status).toBe(200);
    const reportId = res.body.id as string;
    let copy: Response | undefined;
    await sys.waitFor(
      async () => {
        copy = await fetch(`${sys.baseUrl}/v1/reports/${reportId}/evidence/0`, { headers: { authorization: viewer.auth } });
        return copy.status === 200;
      },
      20_000,
      'the upload kept',
    );
    expect(Buffer.from(await copy!.arrayBuffer()).equals(PNG)).toBe(true);
    expect(copy!.headers.get('x-evidence-sha256')).toBe(sha(PNG));
    // In the bucket, under its hash; the staged upload is gone.
    const keys = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? keys(join(dir, e.name)).map((k) => `${e.name}/${k}`) : [e.name]));
    const stored = keys(join(s3dir, 'evidence-e2e'));
    expect(stored.some((k) => k.includes(`evidence/sha256/${sha(PNG).slice(0, 2)}/${sha(PNG).slice(2, 4)}/${sha(PNG)}`))).toBe(true);
    expect(stored.some((k) => k.includes('evidence/uploads/'))).toBe(false);

    // The player's erasure (issue 53) deletes the kept copy from the bucket too.
    const erased = await sys.cli(['privacy', 'erase', '--user', '9500', '--json']);
    expect(erased.code, erased.stderr).toBe(0);
    expect(JSON.parse(erased.stdout).erased).toMatchObject({ evidenceItems: 1, evidenceFiles: 1 });
    expect(keys(join(s3dir, 'evidence-e2e')).some((k) => k.includes(sha(PNG)))).toBe(false);
    expect((await fetch(`${sys.baseUrl}/v1/reports/${reportId}/evidence/0`, { headers: { authorization: viewer.auth } })).status).toBe(404);
  });
});
