/**
 * The testing dashboard's model (issue 15; spec section 3 "Test suite / Test result"). Every
 * status on the page comes from a check that ran on this device against this server: nothing is
 * simulated, and no status is ever decided by chance (eslint forbids Math.random in this feature).
 */

export const SUITE_CATEGORIES = ['unit', 'e2e', 'security', 'performance'] as const;
export type SuiteCategory = (typeof SUITE_CATEGORIES)[number];

export const SUITE_IDS = ['crypto', 'api', 'e2e', 'security', 'performance'] as const;
export type SuiteId = (typeof SUITE_IDS)[number];

/** Spec section 9 "Test durations": what the page shows as the estimate beside the last real run. */
export const ESTIMATED_MS: Record<SuiteId, number> = {
  crypto: 30_000,
  api: 45_000,
  e2e: 120_000,
  security: 60_000,
  performance: 90_000,
};

export type RunStatus = 'idle' | 'running' | 'passed' | 'failed' | 'cancelled';
/** `warn`: the check ran and found something to look at that does not make the suite fail. */
export type CheckStatus = 'passed' | 'failed' | 'warning' | 'skipped' | 'cancelled';

/** What a finished check says. `detail` and `metrics` are shown and reported; never a secret. */
export interface CheckOutcome {
  status: Exclude<CheckStatus, 'cancelled'>;
  /** One line: what was measured or found ("AES-256-GCM: 412 MB/s (median of 5)"). */
  detail: string;
  /** Numbers worth keeping in the report (ms, MB/s, counts). */
  metrics?: Record<string, number>;
}

/** What a check may use. Everything that waits takes `signal`: Stop aborts it. */
export interface CheckContext {
  signal: AbortSignal;
  /** A line for the suite's output view, streamed as it is written. */
  log(line: string): void;
  /** `quick`: Quick Test's run (each suite's fast subset, the whole under 10 s). */
  quick: boolean;
}

export interface CheckDefinition<Ctx extends CheckContext = CheckContext> {
  id: string;
  name: string;
  /** Why it matters, in one sentence (shown when it fails, and in Documentation). */
  why: string;
  /** What to do when it fails. */
  fix: string;
  /** Anchor in the dashboard's documentation (docs/testing-dashboard.md). */
  docs: string;
  /** Part of Quick Test. */
  quick: boolean;
  /** Resolves with the outcome; throws only on abort (or a bug: reported as failed with its message). */
  run(ctx: Ctx): Promise<CheckOutcome>;
}

export interface SuiteDefinition<Ctx extends CheckContext = CheckContext> {
  id: SuiteId;
  name: string;
  description: string;
  category: SuiteCategory;
  /** What the suite covers (View Coverage). */
  covers: string[];
  checks: CheckDefinition<Ctx>[];
}

/** One check's result in a run. */
export interface CheckResult {
  id: string;
  name: string;
  status: CheckStatus;
  detail: string;
  durationMs: number;
  metrics?: Record<string, number>;
  /** Copied from the definition for failed and warning checks. */
  why?: string;
  fix?: string;
  docs?: string;
}

/** The spec's test result, per suite run. */
export interface SuiteRun {
  suiteId: SuiteId;
  status: RunStatus;
  quick: boolean;
  startedAt: string;
  durationMs: number;
  checks: CheckResult[];
  /** The failed checks' one-line errors. */
  errors: string[];
  output: string[];
}
