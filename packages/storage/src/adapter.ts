/**
 * What every adapter of the storage port shares (`@rm/storage/adapter`): the rules that must read
 * the same on each store. Not for use cases: they speak the ports (`@rm/storage`).
 */
export { approvalSanction } from './approval-sanction.js';
export { effectCreatedAt } from './effect-records.js';
export { outcomeChange } from './reporter-outcomes.js';
export { decodeStatementCursor, encodeStatementCursor } from './statement-cursor.js';
export { appealNotErased, eraseAnswers, eraseEvidenceLinks, eraseSanctionEvidence, eraseStatement, holdTargetRef, privacySubjectRef } from './privacy-scrub.js';
export {
  CASE_RETENTION,
  decodeRetentionCursor,
  isCaseRetentionKind,
  isPseudonym,
  newPseudonym,
  nextRetentionCursor,
  pseudonymisedResult,
  reportScrubChanged,
  retentionMarkKey,
  retentionStates,
  scrubbedReport,
  type CaseRetention,
  type CaseRetentionKind,
  type ReportScrub,
  type RetentionPosition,
  type ScrubbedReport,
} from './retention-rules.js';
