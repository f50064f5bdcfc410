export * from './user-directory.js';
export * from './chat-platform.js';
