export * from './ports/appeals.js';
