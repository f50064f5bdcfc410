import type { EvidenceItemRecord, EvidenceStore } from '@rm/storage';
import type { BlobStore } from './blob-store.js';
import type { HashLock } from './hash-lock.js';

const DAY_MS = 86_400_000;
/** Uploads no report cited within this long are deleted. */
export const UNCITED_UPLOAD_MS = DAY_MS;

export interface SweepDeps {
  store: Pick<EvidenceStore, 'expiredEvidence' | 'deleteEvidence'>;
  blobs: BlobStore;
  /** Held from marking a batch deleted to deleting its unheld bytes, against captures of the same bytes (hash-lock.ts). */
  lock: HashLock;
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
 * The retention sweep (docs/evidence.md): captured evidence of cases decided more than
 * `retentionMs` ago, whose sanction is not active and with no appeal waiting for a decision
 * (the store leaves those out), is marked deleted with an audit entry, a
 * batch per transaction; the bytes go once no captured item holds them. Uploads nobody cited
 * within a day go too. The audit entries are the sweep's record; the caller logs the counts.
 */
export async function sweepEvidence(deps: SweepDeps, options: SweepOptions): Promise<SweepResult> {
  const now = (deps.now ?? Date.now)();
  const cutoff = now - options.retentionMs;
  const maxItems = options.maxItems ?? 100_000;
  const result: SweepResult = { items: [], blobsDeleted: 0, uncitedUploads: [] };
  // A page at a time from the store's cursor: an item kept (its sanction active, its appeal
  // waiting) is read once per sweep, not again on every page.
  for (let cursor: string | null = null; result.items.length < maxItems; ) {
    const limit = Math.min(options.batchSize, maxItems - result.items.length);
    const page = await deps.store.expiredEvidence(cutoff, cursor, limit);
    const batch = page.items;
    result.items.push(...batch);
    if (!options.dryRun && batch.length > 0) {
      const hashes = batch.flatMap((item) => (item.sha256 === null ? [] : [item.sha256]));
      const unheld = await deps.lock(hashes, async () => {
        const gone = await deps.store.deleteEvidence(batch, now);
        for (const sha256 of gone) await deps.blobs.deleteBlob(sha256);
        return gone;
      });
      result.blobsDeleted += unheld.length;
    }
    if (page.cursor === null) break;
    cursor = page.cursor;
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
