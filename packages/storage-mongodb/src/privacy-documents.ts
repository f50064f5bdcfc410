import type { HoldRecord, HoldTarget, PrivacyAuditEntry } from '@rm/storage';

/** A legal hold; `_id` is its id (privacy.ts). */
export type HoldDoc = Omit<HoldRecord, 'id' | 'target'> & { _id: string; targetType: HoldTarget['type']; targetId: string };
/** A privacy audit entry; `_id` is its seq (from the `privacy_audit` counter, taken in its transaction). */
export type PrivacyAuditDoc = Omit<PrivacyAuditEntry, 'seq'> & { _id: number };

export const PRIVACY_AUDIT_COUNTER = 'privacy_audit';

/** Where the last retention sweep of a kind (of one case state) stopped: the last record's time and id (retention.ts). */
export interface RetentionMarkDoc {
  /** retentionMarkKey: the kind, or `<kind>/<state>`. */
  _id: string;
  at: number;
  id: string;
}

/** A case or appeal a retention kind left because something kept it, examined again by every sweep; `_id` is `<kind>/<id>`. */
export interface RetentionWaitingDoc {
  _id: string;
  kind: string;
  id: string;
}

/** A player an erasure named, until the retention sweep replaces their id by a pseudonym; `_id` is the player's id. */
export interface ErasedPlayerDoc {
  _id: string;
  /** The latest erasure: the rows from before it take the pseudonym. */
  erasedAt: number;
}
