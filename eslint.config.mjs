import nx from '@nx/eslint-plugin';
import jsoncParser from 'jsonc-eslint-parser';

// Only these may import a database driver or Fastify: the storage adapters own the drivers, the
// gateway owns HTTP. Two exceptions that are not product code: the fault test that holds a real
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
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:package', onlyDependOnLibsWithTags: ['type:package', 'type:contracts'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:package', 'type:contracts'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:package', 'type:contracts'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:package', 'type:contracts'] },
          ],
        },
      ],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['packages/storage/**', 'tests/e2e/src/faults/storage-lock.test.ts'],
    rules: { 'no-restricted-imports': banned(DRIVERS, 'only packages/storage talks to a database: use the storage port') },
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
