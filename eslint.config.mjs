import nx from '@nx/eslint-plugin';
import jsoncParser from 'jsonc-eslint-parser';

// Only these may import a database driver or Fastify: each storage adapter owns its driver, the
// gateway owns HTTP. Two exceptions that are not product code: fault tests, which hold a real
// SQLite lock, and the benchmark's bare Fastify baseline (docs/decisions.md).
const DRIVERS = ['mongodb', 'mongodb/*', 'better-sqlite3'];
const HTTP_SERVER = ['fastify', 'fastify-*', '@fastify/*'];
const banned = (names, why) => ['error', { patterns: [{ group: names, message: why }] }];

// Use cases and workers take the storage ports they use (AccountStore, ReportStore, ...); only a
// composition root holds the whole Store: an app's main.ts, the gateway's deps bag and app builder
// (what main.ts builds and hands to the routes), the CLI's context, tests, the bench (docs/decisions.md).
const ONLY_GATEWAY_SERVES_HTTP = { group: HTTP_SERVER, message: 'only the gateway serves HTTP with Fastify' };
const NO_WHOLE_STORE = {
  name: '@rm/storage',
  importNames: ['Store'],
  message: 'take the ports you use (AccountStore, ReportStore, DecisionStore, ...); only composition roots hold a Store',
};
const USE_CASES = ['apps/**/*.ts', 'apps/**/*.tsx', 'packages/**/*.ts', 'tools/**/*.ts'];
const COMPOSITION_ROOTS = [
  'apps/*/src/main.ts',
  'apps/gateway/src/deps.ts',
  'apps/gateway/src/app.ts',
  'tools/cli/src/context.ts',
  'tools/bench/**',
  '**/*.test.ts',
];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/dist', '**/node_modules', '**/.nx', '**/coverage', '**/data', '**/test-output'] },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs', '**/*.js'],
    rules: {
      // Apps never import apps; packages never import apps; contracts import nothing of ours.
      // Cycles between projects fail here too; cycles between files fail in tools/dev's lint (dpdm).
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            // The layers, each on those below it: contracts, the storage ports, their adapters
            // (and the factory that chooses one), the other packages, then apps, tools and tests.
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:ports', onlyDependOnLibsWithTags: ['type:ports', 'type:contracts'] },
            { sourceTag: 'type:adapter', onlyDependOnLibsWithTags: ['type:adapter', 'type:ports', 'type:contracts'] },
            { sourceTag: 'type:package', onlyDependOnLibsWithTags: ['type:package', 'type:adapter', 'type:ports', 'type:contracts'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:package', 'type:adapter', 'type:ports', 'type:contracts'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:package', 'type:adapter', 'type:ports', 'type:contracts'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:package', 'type:adapter', 'type:ports', 'type:contracts'] },
          ],
        },
      ],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['packages/storage-sqlite/**', 'packages/storage-mongodb/**', 'tests/e2e/src/faults/**'],
    rules: { 'no-restricted-imports': banned(DRIVERS, 'only the storage adapters talk to a database: use the storage ports') },
  },
  {
    // Each adapter its own driver: the SQLite adapter never loads MongoDB's, nor the reverse.
    files: ['packages/storage-sqlite/**/*.ts'],
    rules: { 'no-restricted-imports': banned(['mongodb', 'mongodb/*'], "the SQLite adapter: MongoDB is @rm/storage-mongodb's") },
  },
  {
    files: ['packages/storage-mongodb/**/*.ts'],
    rules: { 'no-restricted-imports': banned(['better-sqlite3'], "the MongoDB adapter: SQLite is @rm/storage-sqlite's") },
  },
  // Fastify and the whole Store are one rule's two restrictions. Flat config does not merge two
  // entries of a rule for one file (the later block wins), so each block below names every
  // restriction that holds for its files.
  {
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['apps/gateway/**', 'tools/bench/src/bare/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [ONLY_GATEWAY_SERVES_HTTP] }] },
  },
  {
    files: USE_CASES,
    ignores: ['packages/storage*/**', ...COMPOSITION_ROOTS, 'apps/gateway/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [NO_WHOLE_STORE], patterns: [ONLY_GATEWAY_SERVES_HTTP] }] },
  },
  {
    files: ['apps/gateway/**/*.ts'],
    ignores: COMPOSITION_ROOTS,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [NO_WHOLE_STORE] }] },
  },
  {
    // Every import of a workspace project is declared in its package.json, and nothing declared
    // goes unused.
    files: ['**/package.json'],
    languageOptions: { parser: jsoncParser },
    rules: {
      '@nx/dependency-checks': [
        'error',
        {
          buildTargets: ['build'],
          checkMissingDependencies: true,
          checkObsoleteDependencies: true,
          checkVersionMismatches: false,
          includeTransitiveDependencies: false,
          // Test code is not built: what it imports belongs in devDependencies.
          ignoredFiles: ['{projectRoot}/**/*.test.ts', '{projectRoot}/**/*.contract.ts', '{projectRoot}/**/test-server.ts', '{projectRoot}/**/store-in-child.ts', '{projectRoot}/test/**', '{projectRoot}/vitest.config.*', '{projectRoot}/vite.config.*'],
        },
      ],
    },
  },
  {
    // Tests read loosely typed JSON answers.
    files: ['tests/**/*.ts', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
];
