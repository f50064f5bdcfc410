import type { EvidenceItemRecord, Store } from '@rm/storage';
import type { BlobStore } from './blob-store.js';

const DAY_MS = 86_400_000;
/** Uploads no report cited within this long are deleted. */
export const UNCITED_UPLOAD_MS = DAY_MS;

export interface SweepDeps {
  store: Pick<Store, 'expiredEvidence' | 'deleteEvidence'>;
  blobs: BlobStore;
  now?: () => number;
}

export interface SweepOptions {
  /** How long kept evidence lives after its case is decided (the policy's `evidence.retention`), in ms. */
  retentionMs: number;
  /** Items deleted per store transaction. */
  batchSize: number;
  /** List what would go, delete nothing. */
  dryRun: boolean;
  /** At most this many items in one sweep (the rest waits for the next). */
  maxItems?: number;
}

export interface SweepResult {
  /** The items deleted (or, in a dry run, that would be). */
  items: EvidenceItemRecord[];
  /** Kept copies whose bytes were deleted (no captured item holds them any more); none in a dry run. */
  blobsDeleted: number;
  /** Uploads no report cited within a day (deleted, or listed in a dry run). */
  uncitedUploads: string[];
}

/**
 * ISSUE 28 HOOK: "an appeal is open". Appeals do not exist yet; when they do, evidence of a case
 * with an open appeal must be kept: answer true here for such a case and the sweep skips it.
 */
async function appealIsOpen(_caseId: string): Promise<boolean> {
  return false;
}

/**
 * The retention sweep (docs/evidence.md): captured evidence of cases decided more than
 * `retentionMs` ago, whose sanction is not active, is marked deleted with an audit entry, a
 * batch per transaction; the bytes go once no captured item holds them. Uploads nobody cited
 * within a day go too. The audit entries are the sweep's record; the caller logs the counts.
 */
export async function sweepEvidence(deps: SweepDeps, options: SweepOptions): Promise<SweepResult> {
  const now = (deps.now ?? Date.now)();
  const cutoff = now - options.retentionMs;
  const maxItems = options.maxItems ?? 100_000;
  const result: SweepResult = { items: [], blobsDeleted: 0, uncitedUploads: [] };
  const skipped = new Set<string>();
  while (result.items.length < maxItems) {
    // A dry run deletes nothing, so the store would answer the same page again: one read of all.
    const limit = options.dryRun ? maxItems : Math.min(options.batchSize, maxItems - result.items.length) + skipped.size;
    const found = await deps.store.expiredEvidence(cutoff, limit);
    const batch: EvidenceItemRecord[] = [];
    for (const item of found) {
      const key = `${item.reportId}/${item.index}`;
      if (skipped.has(key)) continue;
      if (await appealIsOpen(item.caseId)) skipped.add(key);
      else batch.push(item);
    }
    if (batch.length === 0) break;
    result.items.push(...batch);
    if (options.dryRun) break;
    const unheld = await deps.store.deleteEvidence(batch, now);
    for (const sha256 of unheld) await deps.blobs.deleteBlob(sha256);
    result.blobsDeleted += unheld.length;
    if (found.length < limit) break;
  }
  for (;;) {
    const ids = (await deps.blobs.uploadsBefore(now - UNCITED_UPLOAD_MS, options.batchSize)).filter((id) => !result.uncitedUploads.includes(id));
    if (ids.length === 0) break;
    result.uncitedUploads.push(...ids);
    if (options.dryRun) break;
    for (const id of ids) await deps.blobs.deleteUpload(id);
  }
  return result;
}
