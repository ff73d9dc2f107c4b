// Boundaries are enforced by lint, not prose (docs/architecture.md "Code conventions").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import { readdirSync } from 'node:fs';

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

// The web app's layers (apps/web/README.md "Layout"): a feature never imports another feature (the
// app composes them), nor the app outside its tests; components, lib and workers import no feature
// and not the app, and lib no component. The app's own imports are relative, so the specifier is
// matched: `../<feature>/` or `features/<feature>/` anywhere in it (a feature's folders are never
// named after another feature; apps/web/src/layers.test.ts checks that, plants each kind of import
// and sees it fail, and scans the tree by resolved path).
const webSrc = 'apps/web/src';
const webFeatures = readdirSync(new URL(`./${webSrc}/features`, import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const WEB_LAYOUT = 'apps/web/README.md "Layout"';
// 'testing' is both a feature (the testing dashboard, issue 15) and the name every layer gives its
// test support (src/testing, features/*/testing): `../testing/` means the feature only when it
// goes through features/testing or on into one of the feature's own folders.
const testingFeatureFolders = readdirSync(new URL(`./${webSrc}/features/testing`, import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory() && entry.name !== 'testing')
  .map((entry) => entry.name)
  .sort();
const intoFolders = (names) => {
  const plain = names.filter((name) => name !== 'testing');
  const alternatives = [`(\\.\\.|features)/(${plain.join('|')})(/|$)`];
  if (names.includes('testing')) {
    alternatives.push('features/testing(/|$)', `\\.\\./testing/(${testingFeatureFolders.join('|')})(/|$)`);
  }
  return `(^|/)(${alternatives.join('|')})`;
};
const climbingInto = (names) => `(^|/)\\.\\./(${names.join('|')})(/|$)`;

/**
 * The rules that refuse imports whose specifier matches one of `bans` ({regex, message}): static
 * imports and re-exports (no-restricted-imports), and import(), `typeof import()` and vi.mock()
 * and its kin (no-restricted-syntax; esquery regexes cannot hold a '/', hence \x2F).
 */
function refuseImports(bans) {
  const inSelector = (regex) => `/${regex.replaceAll('/', '\\x2F')}/`;
  return {
    'no-restricted-imports': ['error', { patterns: bans.map(({ regex, message }) => ({ regex, message })) }],
    'no-restricted-syntax': [
      'error',
      ...bans.flatMap(({ regex, message }) => [
        { selector: `ImportExpression[source.value=${inSelector(regex)}]`, message },
        { selector: `TSImportType[source.value=${inSelector(regex)}]`, message },
        {
          selector: `CallExpression[callee.object.name="vi"] > Literal.arguments[value=${inSelector(regex)}]`,
          message,
        },
      ]),
    ],
  };
}

const otherFeature = (feature) => ({
  regex: intoFolders(webFeatures.filter((name) => name !== feature)),
  message: `features/${feature} cannot import another feature (${WEB_LAYOUT}): move what both need to components/ or lib/, or compose the two in app/.`,
});
const theApp = (feature) => ({
  regex: climbingInto(['app']),
  message: `features/${feature} cannot import the app (${WEB_LAYOUT}); only its tests may render it.`,
});
const webTests = ['**/*.test.{ts,tsx}', '**/testing/**'];

const webLayers = [
  ...webFeatures.map((feature) => ({
    files: [`${webSrc}/features/${feature}/**/*.{ts,tsx}`],
    rules: refuseImports([otherFeature(feature), theApp(feature)]),
  })),
  ...webFeatures.map((feature) => ({
    files: webTests.map((glob) => `${webSrc}/features/${feature}/${glob}`),
    rules: refuseImports([otherFeature(feature)]),
  })),
  {
    files: [`${webSrc}/{components,workers}/**/*.{ts,tsx}`],
    rules: refuseImports([
      {
        regex: climbingInto(['features', 'app']),
        message: `components/ and workers/ know no feature and not the app (${WEB_LAYOUT}).`,
      },
    ]),
  },
  {
    files: [`${webSrc}/lib/**/*.{ts,tsx}`],
    rules: refuseImports([
      {
        regex: climbingInto(['features', 'app', 'components']),
        message: `lib/ knows no feature, component or the app (${WEB_LAYOUT}).`,
      },
    ]),
  },
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
          // The one headless Chromium launcher that the browser specs, the browser benchmarks and
          // the crypto vectors' browser run share (repository tooling, in no project).
          allow: ['/scripts/lib/chromium\\.mjs$'],
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
    // Config is read once at boot (docs/architecture.md "Code conventions").
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
  ...webLayers,
  {
    // Issue 15: every status on the testing dashboard is measured on this device, never made up.
    files: [`${webSrc}/features/testing/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'Math',
          property: 'random',
          message:
            'No Math.random in the testing dashboard (issue 15): every result is measured, never simulated; use crypto.getRandomValues for test data.',
        },
      ],
    },
  },
  prettier,
);
