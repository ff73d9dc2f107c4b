// One Jest run, three tiers told apart by folder (docs/architecture.md "Tests, in tiers").
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.base.json');

const base = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }] },
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
      testTimeout: 30000,
    },
    {
      ...base,
      displayName: 'e2e',
      testMatch: ['<rootDir>/apps/e2e/api/**/*.e2e-spec.ts'],
      testTimeout: 60000,
    },
  ],
};
