export * from './errors.js';
export * from './permissions.js';
export * from './limits.js';
export * from './http.js';
export * from './decisions.js';
export * from './queues.js';
export * from './notifications.js';
export * from './cases.js';
