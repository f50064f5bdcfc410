import { createHash } from 'node:crypto';
import { UPLOAD_URL_SCHEME, type CaptureItem } from '@rm/contracts';
import type { EvidenceItemRecord, EvidenceStore } from '@rm/storage';
import type { BlobStore } from './blob-store.js';
import { bytesMatchType, isAllowedContentType } from './content-types.js';
import { CaptureError, isRetryableStatus, type CaptureFailure, type Fetched } from './guarded-fetch.js';
import type { HashLock } from './hash-lock.js';
import type { UploadTokens } from './upload-tokens.js';

export interface KeepDeps {
  store: Pick<EvidenceStore, 'recordEvidence' | 'evidenceOfReports'>;
  blobs: BlobStore;
  /** The guarded fetcher, with its limits and allow-list bound. */
  fetch: (url: string) => Promise<Fetched>;
  tokens: UploadTokens;
  maxBytes: number;
  /** Held from writing the bytes to recording the item, against the retention sweep (hash-lock.ts). */
  lock: HashLock;
  /** The SHA-256 each gateway upload's PUT stored (UploadReceipts), null when none is known. */
  uploadHash: (uploadId: string) => Promise<string | null>;
  now?: () => number;
}

/** The upload a cited `evidence-upload:` URL names, checked: ours, there, of its declared size and type. */
async function readCitedUpload(deps: KeepDeps, url: string): Promise<Fetched & { uploadId: string }> {
  const checked = deps.tokens.check(url.slice(UPLOAD_URL_SCHEME.length), 'cite', deps.now?.());
  if (!checked.ok) throw new CaptureError('bad_upload', checked.why === 'expired' ? 'the upload was cited too late' : 'the upload URL was not issued by this service');
  const { uploadId, contentType, size } = checked.claim;
  const read = await deps.blobs.readUpload(uploadId, Math.min(size, deps.maxBytes));
  if (read === 'missing') throw new CaptureError('upload_missing', 'nothing was uploaded to this URL');
  if (read === 'too_large') throw new CaptureError('too_large', `the upload holds more than the ${size} bytes declared`);
  if (read.length !== size) throw new CaptureError('size_mismatch', `the upload holds ${read.length} bytes, ${size} were declared`);
  if (!isAllowedContentType(contentType)) throw new CaptureError('type_not_allowed', `content type ${contentType} is not kept`);
  if (!bytesMatchType(contentType, read)) throw new CaptureError('type_mismatch', `the bytes are not ${contentType}`);
  const sha256 = createHash('sha256').update(read).digest('hex');
  const stored = await deps.uploadHash(uploadId);
  if (stored !== null && stored !== sha256) throw new CaptureError('upload_changed', 'the upload is not the bytes its PUT stored');
  return { uploadId, bytes: read, contentType, size: read.length, sha256 };
}

const failedItem = (job: CaptureItem, failure: CaptureFailure, detail: string, at: number): EvidenceItemRecord => ({
  reportId: job.reportId,
  index: job.index,
  caseId: job.caseId,
  state: 'failed',
  failure,
  detail: detail.slice(0, 500),
  sha256: null,
  size: null,
  contentType: null,
  capturedAt: null,
  at,
});

// Failures another attempt may mend (with HTTP 5xx, 408 and 429: docs/evidence.md's "retried").
const RETRYABLE: ReadonlySet<string> = new Set<CaptureFailure>(['timed_out', 'network', 'internal']);

/**
 * Whether a recorded item is left alone when its job runs again: captured, deleted, or failed for
 * good (a 404, a refused address). A failure that could pass another time is recorded only when
 * the job's attempts ran out, so it is tried again only by a job retried by hand.
 */
function isSettled(item: EvidenceItemRecord): boolean {
  if (item.state !== 'failed') return true;
  // The detail of an http_status failure is `HTTP <status>`.
  if (item.failure === 'http_status') return !isRetryableStatus(Number(/^HTTP (\d{3})/.exec(item.detail ?? '')?.[1]));
  return !RETRYABLE.has(item.failure ?? '');
}

/**
 * Keeps one evidence item: fetches the URL (guarded) or reads the cited upload, stores the bytes
 * under their SHA-256 and records the item with its audit entry. An item already settled is left
 * as it is (a redelivered job). A failure that another attempt can mend (a timeout, a 5xx) is
 * thrown for the queue to retry while attempts are left; any other, or the last, is recorded.
 */
export async function keepEvidence(deps: KeepDeps, job: CaptureItem, lastAttempt: boolean): Promise<EvidenceItemRecord> {
  const now = deps.now ?? Date.now;
  const settled = (await deps.store.evidenceOfReports([job.reportId])).find((i) => i.index === job.index && isSettled(i));
  if (settled) return settled;
  let got: Fetched & { uploadId?: string };
  try {
    got = job.type === 'url' ? await deps.fetch(job.url) : await readCitedUpload(deps, job.url);
  } catch (err) {
    if (!(err instanceof CaptureError)) throw err;
    if (err.retryable && !lastAttempt) throw err;
    return deps.store.recordEvidence(failedItem(job, err.reason, err.message, now()));
  }
  const item = await deps.lock([got.sha256], async () => {
    const kept = await deps.blobs.putBlob(got.bytes);
    const at = now();
    return deps.store.recordEvidence({
      reportId: job.reportId,
      index: job.index,
      caseId: job.caseId,
      state: 'captured',
      failure: null,
      detail: null,
      sha256: kept.sha256,
      size: kept.size,
      contentType: got.contentType,
      capturedAt: at,
      at,
    });
  });
  // Kept by hash now: the staged upload is not needed (a crash before this leaves it to the sweep).
  if (got.uploadId !== undefined) await deps.blobs.deleteUpload(got.uploadId);
  return item;
}

/** Records an item not settled when its job failed for good on an error of ours, so it does not stay pending for ever. */
export async function recordKeepFailure(store: Pick<EvidenceStore, 'recordEvidence' | 'evidenceOfReports'>, item: CaptureItem, err: Error, at = Date.now()): Promise<void> {
  const settled = (await store.evidenceOfReports([item.reportId])).some((i) => i.index === item.index);
  if (!settled) await store.recordEvidence(failedItem(item, 'internal', err.message, at));
}

/**
 * Keeps the items of one capture job at once. Items already settled are skipped (a retried job
 * redoes only what is left); if any item failed in a way another attempt can mend, the job
 * throws after the others are done, and the queue tries it again.
 */
export async function keepItems(deps: KeepDeps, items: CaptureItem[], lastAttempt: boolean): Promise<EvidenceItemRecord[]> {
  const outcomes = await Promise.allSettled(items.map((item) => keepEvidence(deps, item, lastAttempt)));
  const failed = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as Error] : []));
  if (failed.length > 0) throw new Error(`${failed.length} of ${items.length} evidence items to try again: ${failed.map((e) => e.message).join('; ')}`);
  return outcomes.map((o) => (o as PromiseFulfilledResult<EvidenceItemRecord>).value);
}
