import { z } from 'zod';
import { uuidV4 } from '../common/formats';
import { strictBody } from '../common/validation';
import { ERROR_INFO } from '../errors';

/**
 * The server test runner (issue 15; docs/testing-dashboard.md "Server runner"): the spec's local
 * websocket runner done safely. Off unless the admin service's TEST_RUNNER_ENABLED is true; admins
 * only (reading needs `system:read`, starting and stopping `tests:run`, both audited); it runs only
 * the suites named here, each a command fixed in the admin service (the client names a suite, never
 * a command); one run at a time across every replica; its output is read in pages by offset.
 */
export const SERVER_TEST_SUITES = [
  {
    id: 'contracts',
    name: 'API contracts',
    description:
      "The contract library's unit tests: every request and answer schema, the error codes and the RPC map",
    estimatedSeconds: 15,
  },
  {
    id: 'crypto',
    name: 'Crypto library',
    description: "The crypto library's unit tests in Node, the published protocol vectors among them",
    estimatedSeconds: 30,
  },
  {
    id: 'unit',
    name: 'All unit tests',
    description: "Every service's and library's unit tests (the unit tier of npm test)",
    estimatedSeconds: 300,
  },
] as const;
export type ServerTestSuite = (typeof SERVER_TEST_SUITES)[number];
export type ServerTestSuiteId = ServerTestSuite['id'];
export const SERVER_TEST_SUITE_IDS = SERVER_TEST_SUITES.map((s) => s.id) as [
  ServerTestSuiteId,
  ...ServerTestSuiteId[],
];

export const TEST_RUNNER_LIMITS = {
  /** Output lines kept per run; later lines are dropped and the run says how many. */
  outputLinesMax: 5_000,
  /** Characters kept per output line. */
  lineCharsMax: 1_000,
  /** Output lines in one answer of the output call. */
  outputPageMax: 500,
} as const;

export const TEST_RUNNER_MESSAGES = {
  off: ERROR_INFO.TEST_RUNNER_UNAVAILABLE.message,
  /** Enabled, but this install holds no test sources (the images hold only what runs). */
  noSources:
    'This install has no test sources: the server runner needs a source checkout with its ' +
    'development dependencies (npm start), not the production images.',
  busy: 'A server test run is already running',
  runNotFound: 'Test run not found',
  unknownSuite: 'Unknown test suite',
} as const;

export const SERVER_TEST_RUN_STATUSES = ['running', 'passed', 'failed', 'cancelled', 'error'] as const;
export type ServerTestRunStatus = (typeof SERVER_TEST_RUN_STATUSES)[number];

const count = z.number().int().min(0);

/** One coverage figure, as Istanbul's json-summary reports it. */
export const coverageMetricSchema = z.object({
  covered: count,
  total: count,
  pct: z.number().min(0).max(100),
});
export type CoverageMetric = z.infer<typeof coverageMetricSchema>;

/** A run's coverage: the totals and the line coverage of each package folder (`libs/crypto`). */
export const coverageSummarySchema = z.object({
  lines: coverageMetricSchema,
  statements: coverageMetricSchema,
  functions: coverageMetricSchema,
  branches: coverageMetricSchema,
  folders: z.array(z.object({ path: z.string(), lines: coverageMetricSchema })),
});
export type CoverageSummary = z.infer<typeof coverageSummarySchema>;

export const serverTestRunSchema = z.object({
  id: z.string(),
  suite: z.enum(SERVER_TEST_SUITE_IDS),
  status: z.enum(SERVER_TEST_RUN_STATUSES),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  durationMs: count.nullable(),
  /** The admin who started it (username). */
  startedBy: z.string(),
  /** Test counts from the runner's own report, once the run ended (null when it gave none). */
  tests: z.object({ total: count, passed: count, failed: count, skipped: count }).nullable(),
  coverage: coverageSummarySchema.nullable(),
  /** Why a run ended in `error` (did not start, timed out, crashed): never a stack trace. */
  error: z.string().nullable(),
  /** Output lines kept so far, and lines dropped past TEST_RUNNER_LIMITS.outputLinesMax. */
  lines: count,
  droppedLines: count,
});
export type ServerTestRun = z.infer<typeof serverTestRunSchema>;

/** A run as it starts: running, nothing measured yet (the admin service's record, and test fakes). */
export function startedServerTestRun(id: string, suite: ServerTestSuiteId, startedBy: string): ServerTestRun {
  return {
    id,
    suite,
    status: 'running',
    startedAt: new Date().toISOString(),
    finishedAt: null,
    durationMs: null,
    startedBy,
    tests: null,
    coverage: null,
    error: null,
    lines: 0,
    droppedLines: 0,
  };
}

/** GET /api/admin/test-runner: whether it can run, its suites, the run going on and the last one. */
export const testRunnerStatusSchema = z.object({
  enabled: z.boolean(),
  available: z.boolean(),
  /** Why no run can start (TEST_RUNNER_MESSAGES.off or .noSources); null when one can. */
  reason: z.string().nullable(),
  suites: z.array(
    z.object({
      id: z.enum(SERVER_TEST_SUITE_IDS),
      name: z.string(),
      description: z.string(),
      estimatedSeconds: count,
    }),
  ),
  current: serverTestRunSchema.nullable(),
  last: serverTestRunSchema.nullable(),
});
export type TestRunnerStatus = z.infer<typeof testRunnerStatusSchema>;

/** POST /api/admin/test-runner/runs: a suite of the fixed list, nothing else. */
export const testRunStartBodySchema = strictBody({
  suite: z.enum(SERVER_TEST_SUITE_IDS, { error: TEST_RUNNER_MESSAGES.unknownSuite }),
});
export type TestRunStartBody = z.output<typeof testRunStartBodySchema>;

export const testRunIdParamSchema = z.strictObject({ runId: uuidV4 });
export type TestRunIdParam = z.output<typeof testRunIdParamSchema>;

/** GET .../runs/:runId?from=N: the output lines from line N (0-based). */
export const testRunOutputQuerySchema = strictBody({
  from: z.coerce.number().int().min(0).max(TEST_RUNNER_LIMITS.outputLinesMax).default(0),
});
export type TestRunOutputQuery = z.output<typeof testRunOutputQuerySchema>;

export const testRunOutputSchema = z.object({
  run: serverTestRunSchema,
  from: count,
  lines: z.array(z.string()),
  /** The `from` of the next call. */
  next: count,
});
export type TestRunOutput = z.infer<typeof testRunOutputSchema>;

/** The body of `admin.test-runner.output` over RPC. */
export const testRunOutputRequestSchema = z.strictObject({
  ...testRunIdParamSchema.shape,
  ...testRunOutputQuerySchema.shape,
});
export type TestRunOutputRequest = z.output<typeof testRunOutputRequestSchema>;
