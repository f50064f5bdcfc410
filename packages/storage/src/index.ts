/**
 * The storage port (`@rm/storage`): one port per aggregate (ports/), the records each speaks, and
 * `Store`, their intersection, for composition roots. The adapters are packages of their own
 * (`@rm/storage-sqlite`, `@rm/storage-mongodb`); `@rm/storage-factory` chooses one.
 */
export * from './ports/accounts.js';
export * from './ports/reports.js';
export * from './ports/decisions.js';
export * from './ports/sanctions.js';
export * from './ports/effects.js';
export * from './ports/triage.js';
export * from './ports/reporters.js';
export * from './ports/evidence.js';
export * from './ports/appeals.js';
export * from './ports/transparency.js';
export * from './errors.js';
export { answeringStoreFull } from './store-full.js';
export { recordedEffects } from './effect-records.js';
export type { Store } from './store.js';
export { allOpenCases, OPEN_CASES_PAGE, triageOfCases } from './open-cases.js';
export type { MigrateOptions, MigrationProgress, MigrationReport, PendingMigrations } from './migrations.js';
export * from './ports/privacy.js';
export { holdTargetRef, privacySubjectRef } from './privacy-scrub.js';
