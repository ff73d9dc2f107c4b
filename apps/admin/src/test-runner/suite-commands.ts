import { TEST_RUNNER_MESSAGES, type ServerTestSuiteId } from '@vault/contracts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { COVERAGE_DIR, RESULTS_FILE } from './run-reports';

/** Where a run happens: the source checkout, and the run's own fresh temporary folder for its reports. */
export interface SuitePaths {
  root: string;
  outDir: string;
}

/**
 * The command of a suite: an argv array (the program first), run without a shell. The client only
 * ever names a suite id of the contracts' fixed list; no text of a request reaches a command.
 */
export type SuiteCommands = (suite: ServerTestSuiteId, paths: SuitePaths) => readonly string[];

/** The DI token of the suite table: always JEST_SUITE_COMMANDS, but the medium tests' quick commands. */
export const TEST_SUITE_COMMANDS = Symbol('TEST_SUITE_COMMANDS');

/** Each suite's test folders (none: every unit test) and the sources its coverage is measured on. */
const SUITES: Record<ServerTestSuiteId, { roots: string[]; coverage: string[] }> = {
  contracts: { roots: ['libs/contracts'], coverage: ['libs/contracts/src/**/*.ts'] },
  crypto: { roots: ['libs/crypto'], coverage: ['libs/crypto/src/**/*.ts'] },
  // The unit tier of npm test; the web app has its own runner (Vitest) and the e2e app no sources.
  unit: { roots: [], coverage: ['{apps,libs}/*/src/**/*.ts', '!apps/web/**', '!apps/e2e/**'] },
};
const NEVER_COVERED = ['!**/*.spec.ts', '!**/*.d.ts'];

export const jestBin = (root: string): string => join(root, 'node_modules', 'jest', 'bin', 'jest.js');

/** The fixed table: Jest's unit project on the suite's folders, with coverage and a JSON report. */
export const JEST_SUITE_COMMANDS: SuiteCommands = (suite, { root, outDir }) => {
  const { roots, coverage } = SUITES[suite];
  return [
    process.execPath,
    jestBin(root),
    '--selectProjects',
    'unit',
    ...roots.flatMap((folder) => ['--roots', join(root, folder)]),
    '--coverage',
    '--coverageReporters=json-summary',
    ...[...coverage, ...NEVER_COVERED].map((glob) => `--collectCoverageFrom=${glob}`),
    `--coverageDirectory=${join(outDir, COVERAGE_DIR)}`,
    '--json',
    `--outputFile=${join(outDir, RESULTS_FILE)}`,
    '--ci',
    '--colors=false',
    // Half the cores at most: the services on this machine must stay responsive during a run.
    '--maxWorkers=50%',
  ];
};

export interface TestRunnerAvailability {
  enabled: boolean;
  available: boolean;
  /** TEST_RUNNER_MESSAGES.off or .noSources; null when a run can start. */
  reason: string | null;
}

/** Whether a run can start: turned on, and `root` is a source checkout with Jest installed. */
export function testRunnerAvailability({
  enabled,
  root,
}: {
  enabled: boolean;
  root: string;
}): TestRunnerAvailability {
  if (!enabled) return { enabled, available: false, reason: TEST_RUNNER_MESSAGES.off };
  if (!existsSync(join(root, 'jest.config.js')) || !existsSync(jestBin(root))) {
    return { enabled, available: false, reason: TEST_RUNNER_MESSAGES.noSources };
  }
  return { enabled, available: true, reason: null };
}
