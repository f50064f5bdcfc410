import type { HoldRecord, HoldTarget, PrivacyAuditEntry } from '@rm/storage';

/** A legal hold; `_id` is its id (privacy.ts). */
export type HoldDoc = Omit<HoldRecord, 'id' | 'target'> & { _id: string; targetType: HoldTarget['type']; targetId: string };
/** A privacy audit entry; `_id` is its seq (from the `privacy_audit` counter, taken in its transaction). */
export type PrivacyAuditDoc = Omit<PrivacyAuditEntry, 'seq'> & { _id: number };

export const PRIVACY_AUDIT_COUNTER = 'privacy_audit';
