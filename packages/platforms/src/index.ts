export * from './errors.js';
export * from './user-directory.js';
export * from './chat-platform.js';
export * from './chat-text.js';
export * from './case-view.js';
export * from './decision-webhook.js';
export * from './config.js';
