export * from './address-guard.js';
export * from './content-types.js';
export * from './guarded-fetch.js';
