export * from './address-guard.js';
export * from './content-types.js';
export * from './guarded-fetch.js';
export * from './blob-store.js';
export * from './filesystem-blob-store.js';
export * from './s3-blob-store.js';
