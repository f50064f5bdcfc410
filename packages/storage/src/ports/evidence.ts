/**
 * A kept piece of evidence (docs/evidence.md): the outcome of capturing item `index` of a report's
 * evidence (a `url` asked to be kept with createEvidence, or an `s3Upload`). An item asked for
 * and not settled yet has no record: it is pending.
 */
export type EvidenceState = 'captured' | 'failed' | 'deleted';

export interface EvidenceItemRecord {
  reportId: string;
  index: number;
  caseId: string;
  state: EvidenceState;
  /** Why a capture failed (refused_address, too_large, timed_out, http_status...); null otherwise. */
  failure: string | null;
  /** A line for people: the HTTP status, the address refused... */
  detail: string | null;
  /** The kept copy's SHA-256 (hex), its size and content type: set once captured, kept after deletion. */
  sha256: string | null;
  size: number | null;
  contentType: string | null;
  capturedAt: number | null;
  /** When this outcome was recorded (capture, failure or deletion). */
  at: number;
}

export type EvidenceAction = 'evidence.captured' | 'evidence.failed' | 'evidence.deleted';

/** The evidence audit: one entry per recorded outcome, with the hash of what was kept or deleted. */
export interface EvidenceAuditEntry {
  reportId: string;
  index: number;
  action: EvidenceAction;
  sha256: string | null;
  detail: string | null;
  at: number;
}

export interface EvidenceKey {
  reportId: string;
  index: number;
}

/** Evidence items, their audit and their retention (docs/evidence.md). */
export interface EvidenceStore {
  /**
   * Records a capture's outcome and its audit entry, together. A captured or deleted item is
   * settled: recording it again changes nothing and returns what was recorded first (a redelivered
   * job). A failed item is replaced by a later outcome (a retry that succeeded).
   */
  recordEvidence(item: EvidenceItemRecord): Promise<EvidenceItemRecord>;
  /** The recorded items of these reports, by report id then index. */
  evidenceOfReports(reportIds: string[]): Promise<EvidenceItemRecord[]>;
  /** The audit entries of one report's evidence, oldest first. */
  evidenceAudit(reportId: string): Promise<EvidenceAuditEntry[]>;
  /**
   * A page of the retention sweep: the next `limit` captured items after `cursor` (null to start),
   * in the store's own order, of which it answers those retention may delete (their case decided,
   * approved or dismissed, before `decidedBefore`, with no active sanction and no appeal waiting
   * for a decision, and no legal hold active at `heldAt` (default: now) on its case, its player or its case's
   * sanction: PrivacyStore), and the cursor of the next page (null at the end). An item held by a
   * sanction is examined once per sweep, not on every page; a page may hold no item and not be the
   * last. A limit of 0 answers nothing and the same cursor.
   */
  expiredEvidence(decidedBefore: number, cursor: string | null, limit: number, heldAt?: number): Promise<{ items: EvidenceItemRecord[]; cursor: string | null }>;
  /**
   * Marks captured items deleted (others are left as they are), each with its audit entry, in one
   * transaction. Returns the SHA-256s that no captured item holds any more: their bytes may go.
   */
  deleteEvidence(keys: EvidenceKey[], at: number): Promise<string[]>;
}
