export * from './notifier.js';
export * from './case-sync-marks.js';
export * from './dead-letters.js';
export * from './effect-relay.js';
export * from './effects.js';
export * from './webhook-flag.js';
