// One Jest run, three tiers told apart by folder (docs/architecture.md "Test tiers").
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.base.json');

const base = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }],
    // ESM-only dependencies (content-disposition 3, loaded by @fastify/static; @scure/base and
    // @noble/hashes, loaded by otplib 13) are compiled to CommonJS for Jest, which cannot load
    // ESM from require() on Node 20.
    '^.+/node_modules/(content-disposition|@scure/base|@noble/hashes)/.+\\.js$': [
      'ts-jest',
      { tsconfig: '<rootDir>/tsconfig.jest-esm.json' },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!(content-disposition|@scure/base|@noble/hashes)/)'],
  moduleNameMapper: pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/' }),
  moduleFileExtensions: ['ts', 'js', 'json'],
  setupFiles: ['reflect-metadata'],
};

module.exports = {
  projects: [
    {
      ...base,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs}/*/src/**/*.spec.ts', '<rootDir>/libs/*/test/unit/**/*.spec.ts'],
    },
    {
      ...base,
      displayName: 'medium',
      testMatch: ['<rootDir>/{apps,libs}/*/test/medium/**/*.spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/tools/jest/timeout-medium.js'],
    },
    {
      ...base,
      displayName: 'e2e',
      testMatch: ['<rootDir>/apps/e2e/api/**/*.e2e-spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/tools/jest/timeout-e2e.js'],
    },
    {
      // The API smoke of the compose-env tier (scripts/compose-env-e2e.mjs), on compose's environment.
      ...base,
      displayName: 'e2e-compose',
      testMatch: ['<rootDir>/apps/e2e/compose/**/*.e2e-spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/tools/jest/timeout-e2e.js'],
    },
  ],
};
