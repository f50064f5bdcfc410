/**
 * Data subject requests, legal holds and retention (docs/privacy.md): export, erase, hold and
 * release, for the admin CLI and the gateway's /v1/privacy routes; the retention sweep, for the
 * evidence worker's daily job and the CLI.
 */
export * from './subject.js';
export * from './export-subject.js';
export * from './erase-subject.js';
export * from './holds.js';
export * from './sweep-retention.js';
export * from './finished-jobs.js';
export * from './subject-keys.js';
