/** The records of every port, as the adapters import them (ports/ holds each with its port). */
export * from './ports/accounts.js';
export * from './ports/reports.js';
export * from './ports/decisions.js';
export * from './ports/sanctions.js';
export * from './ports/effects.js';
export * from './ports/triage.js';
export * from './ports/reporters.js';
export * from './ports/evidence.js';
