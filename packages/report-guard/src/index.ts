export * from './report-guard.js';
