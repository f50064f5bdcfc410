export * from './config.js';
export * from './logger.js';
export * from './redis.js';
export * from './shutdown.js';
export * from './ids.js';
export * from './main.js';
export * from './credentials.js';
export * from './consumer.js';
