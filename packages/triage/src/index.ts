export * from './duration.js';
export * from './policy.js';
export * from './policy-config.js';
export * from './credibility.js';
export * from './assess-case.js';
export * from './refresh-triage.js';
export * from './replay.js';
export * from './queue-settings.js';
