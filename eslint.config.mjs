import nx from '@nx/eslint-plugin';

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/dist', '**/node_modules', '**/.nx', '**/coverage', '**/data'] },
  {
    files: ['**/*.ts', '**/*.mjs', '**/*.js'],
    rules: {
      // Apps never import apps; packages never import apps; contracts import nothing of ours.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
            {
              sourceTag: 'type:package',
              onlyDependOnLibsWithTags: ['type:package', 'type:contracts'],
            },
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: ['type:package', 'type:contracts'],
              bannedExternalImports: ['better-sqlite3', 'mongodb'],
            },
            {
              sourceTag: 'kind:worker',
              onlyDependOnLibsWithTags: ['type:package', 'type:contracts'],
              bannedExternalImports: ['fastify', 'fastify-*', '@fastify/*'],
            },
            {
              sourceTag: 'type:tool',
              onlyDependOnLibsWithTags: ['type:package', 'type:contracts'],
              bannedExternalImports: ['better-sqlite3', 'mongodb'],
            },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:package', 'type:contracts'] },
          ],
        },
      ],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // Tests read loosely typed JSON answers.
    files: ['tests/**/*.ts', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
];
