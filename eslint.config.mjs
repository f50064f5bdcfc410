import nx from '@nx/eslint-plugin';
import jsoncParser from 'jsonc-eslint-parser';

// Only these may import a database driver or Fastify: each storage adapter owns its driver, the
// gateway owns HTTP. Two exceptions that are not product code: fault tests, which hold a real
// SQLite lock, and the benchmark's bare Fastify baseline (docs/decisions.md).
const DRIVERS = ['mongodb', 'mongodb/*', 'better-sqlite3'];
const HTTP_SERVER = ['fastify', 'fastify-*', '@fastify/*'];
const banned = (names, why) => ['error', { patterns: [{ group: names, message: why }] }];

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
  {
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['apps/gateway/**', 'tools/bench/src/bare/**'],
    rules: { '@typescript-eslint/no-restricted-imports': banned(HTTP_SERVER, 'only the gateway serves HTTP with Fastify') },
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
