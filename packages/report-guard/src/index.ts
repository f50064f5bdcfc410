export * from './report-guard.js';
export * from './user-sync.js';
