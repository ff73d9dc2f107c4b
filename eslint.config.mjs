// Boundaries are enforced by lint, not prose (docs/conventions.md #11).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';

const nodeBuiltins = [
  'assert',
  'buffer',
  'child_process',
  'cluster',
  'crypto',
  'dgram',
  'dns',
  'events',
  'fs',
  'fs/promises',
  'http',
  'http2',
  'https',
  'net',
  'os',
  'path',
  'perf_hooks',
  'process',
  'readline',
  'stream',
  'tls',
  'url',
  'util',
  'worker_threads',
  'zlib',
];

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '.data/**', 'coverage/**', '.nx/**', '**/*.js', '**/*.cjs'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs'],
    plugins: { '@nx': nx },
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
        fetch: 'readonly',
      },
    },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'runtime:universal', onlyDependOnLibsWithTags: ['runtime:universal'] },
            { sourceTag: 'runtime:node', onlyDependOnLibsWithTags: ['runtime:node', 'runtime:universal'] },
            {
              sourceTag: 'runtime:browser',
              onlyDependOnLibsWithTags: ['runtime:browser', 'runtime:universal'],
            },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:test', onlyDependOnLibsWithTags: ['type:lib'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
    },
  },
  {
    // The crypto protocol and the contracts run in browsers, Workers and Node alike.
    files: ['libs/crypto/src/**/*.ts', 'libs/contracts/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({
            name,
            message: 'Universal libs cannot import Node built-ins.',
          })),
          patterns: [
            { group: ['node:*'], message: 'Universal libs cannot import Node built-ins.' },
            {
              group: ['@nestjs/*', 'typeorm', 'react', 'react-dom', 'ioredis', 'bullmq', 'pg'],
              message: 'Universal libs stay framework-free.',
            },
          ],
        },
      ],
    },
  },
  {
    // Config is read once at boot (docs/conventions.md #5).
    files: ['apps/*/src/**/*.ts', 'libs/server-kit/src/**/*.ts', 'libs/storage/src/**/*.ts'],
    ignores: ['**/config/**', '**/*.spec.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration in config/ only.' },
      ],
    },
  },
  {
    // The web app: React's rules of hooks, and browser globals.
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  prettier,
);
