/**
 * Data subject requests and legal holds (docs/privacy.md): export, erase, hold and release, for the
 * admin CLI and the gateway's /v1/privacy routes.
 */
export * from './subject.js';
export * from './export-subject.js';
export * from './erase-subject.js';
export * from './holds.js';
export * from './finished-jobs.js';
export * from './subject-keys.js';
