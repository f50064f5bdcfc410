export * from './ports/transparency.js';
