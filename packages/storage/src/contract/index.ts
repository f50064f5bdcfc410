/**
 * The storage contract (`@rm/storage/contract`): one suite, grouped by aggregate, that every
 * adapter's tests run against their store. Test code: only vitest loads it, from source.
 */
export { describeSharedStoreContract, describeStoreContract } from './storage.contract.js';
export { FLOOD_CALLERS, FLOOD_REPORTS } from './guarantees.contract.js';
export { allExpiredEvidence, caseMover, report } from './fixtures.contract.js';
export { statementFixture } from './statements.contract.js';
