/**
 * The storage contract (`@rm/storage/contract`): one suite, grouped by aggregate, that every
 * adapter's tests run against their store. Test code (it calls vitest), built with the package so
 * the errors it checks an adapter throws are the very classes the adapter imports.
 */
export { describeSharedStoreContract, describeStoreContract } from './storage.contract.js';
export { FLOOD_CALLERS, FLOOD_REPORTS } from './guarantees.contract.js';
export { allExpiredEvidence, caseMover, report } from './fixtures.contract.js';
export { statementFixture } from './statements.contract.js';
