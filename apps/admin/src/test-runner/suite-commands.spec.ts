import { SERVER_TEST_SUITE_IDS, TEST_RUNNER_MESSAGES } from '@vault/contracts';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JEST_SUITE_COMMANDS, jestBin, testRunnerAvailability } from './suite-commands';

const paths = { root: '/srv/vault', outDir: '/tmp/vault-test-run-abc' };

describe('the fixed suite commands', () => {
  it('runs Jest with node, the unit project only, coverage and a JSON report into the run folder', () => {
    const argv = JEST_SUITE_COMMANDS('contracts', paths);
    expect(argv).toEqual([
      process.execPath,
      '/srv/vault/node_modules/jest/bin/jest.js',
      '--selectProjects',
      'unit',
      '--roots',
      '/srv/vault/libs/contracts',
      '--coverage',
      '--coverageReporters=json-summary',
      '--collectCoverageFrom=libs/contracts/src/**/*.ts',
      '--collectCoverageFrom=!**/*.spec.ts',
      '--collectCoverageFrom=!**/*.d.ts',
      '--coverageDirectory=/tmp/vault-test-run-abc/coverage',
      '--json',
      '--outputFile=/tmp/vault-test-run-abc/results.json',
      '--ci',
      '--colors=false',
      '--maxWorkers=50%',
    ]);
  });

  it('gives each suite its own folders: crypto its library, unit every unit test (no --roots)', () => {
    expect(JEST_SUITE_COMMANDS('crypto', paths)).toEqual(
      expect.arrayContaining([
        '--roots',
        '/srv/vault/libs/crypto',
        '--collectCoverageFrom=libs/crypto/src/**/*.ts',
      ]),
    );
    const unit = JEST_SUITE_COMMANDS('unit', paths);
    expect(unit).not.toContain('--roots');
    expect(unit).toEqual(
      expect.arrayContaining([
        '--collectCoverageFrom={apps,libs}/*/src/**/*.ts',
        '--collectCoverageFrom=!apps/web/**',
        '--collectCoverageFrom=!**/*.spec.ts',
      ]),
    );
  });

  it('is argv only, made of the suite id and the two paths: nothing else reaches it', () => {
    for (const suite of SERVER_TEST_SUITE_IDS) {
      const argv = JEST_SUITE_COMMANDS(suite, paths);
      expect(argv.every((arg) => typeof arg === 'string' && arg.length > 0)).toBe(true);
      // No shell: no argument is a shell line, and only the program is outside the checkout.
      expect(argv.some((arg) => /[;&|`$<>]|\s/.test(arg.replace(/^--collectCoverageFrom=.*$/, '')))).toBe(
        false,
      );
      expect(argv.slice(1).filter((arg) => arg.startsWith('/') && !arg.startsWith(paths.root))).toEqual([]);
      expect(JEST_SUITE_COMMANDS(suite, paths)).toEqual(argv);
    }
    // A suite outside the list (what a forged body would be) has no command.
    expect(() => JEST_SUITE_COMMANDS('rm -rf /' as never, paths)).toThrow();
  });

  it('is available only when turned on and the root is a checkout with Jest installed', async () => {
    const root = await mkdtemp(join(tmpdir(), 'runner-root-'));
    try {
      expect(testRunnerAvailability({ enabled: false, root: process.cwd() })).toEqual({
        enabled: false,
        available: false,
        reason: TEST_RUNNER_MESSAGES.off,
      });
      const noSources = { enabled: true, available: false, reason: TEST_RUNNER_MESSAGES.noSources };
      expect(testRunnerAvailability({ enabled: true, root })).toEqual(noSources);
      await writeFile(join(root, 'jest.config.js'), 'module.exports = {};');
      expect(testRunnerAvailability({ enabled: true, root })).toEqual(noSources);
      await mkdir(join(root, 'node_modules', 'jest', 'bin'), { recursive: true });
      await writeFile(jestBin(root), '');
      expect(testRunnerAvailability({ enabled: true, root })).toEqual({
        enabled: true,
        available: true,
        reason: null,
      });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
