import type {
  CheckContext,
  CheckDefinition,
  CheckResult,
  SuiteDefinition,
  SuiteId,
  SuiteRun,
} from '../model/suite';

/** What the runner tells the page while a suite runs (the output view streams these). */
export type RunEvent =
  | { type: 'suite-start'; suiteId: SuiteId; total: number; startedAt: string }
  | { type: 'check-start'; suiteId: SuiteId; checkId: string; index: number }
  | { type: 'check-end'; suiteId: SuiteId; result: CheckResult }
  | { type: 'output'; suiteId: SuiteId; line: string }
  | { type: 'suite-end'; run: SuiteRun };

export interface RunOptions {
  /** Quick Test: only the checks marked `quick`. */
  quick: boolean;
  /** Stop: the running check is cancelled and nothing after it starts. */
  signal: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  /** The clock (tests); durations come from it, never from a fixed number. */
  now?: () => number;
}

/** The checks a run would start: all of them, or Quick Test's subset. */
export function plannedChecks<Ctx extends CheckContext>(suite: SuiteDefinition<Ctx>, quick: boolean) {
  return quick ? suite.checks.filter((c) => c.quick) : suite.checks;
}

const messageOf = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)) || 'Unknown error';

/** Settles when the signal aborts (the runner does not wait for a check that ignores it). */
function whenAborted(signal: AbortSignal): Promise<'aborted'> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve('aborted');
    else signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
}

const STATUS_LABEL: Record<CheckResult['status'], string> = {
  passed: 'PASS',
  failed: 'FAIL',
  warning: 'WARN',
  skipped: 'SKIP',
  cancelled: 'STOP',
};

/**
 * Runs a suite's checks in order, one at a time, each timed on this device. A check that throws
 * fails with its message; an abort marks the running check and the run 'cancelled' and starts no
 * further check (the check's own work is aborted through `ctx.signal`; anything it logs later is
 * dropped).
 */
export async function runSuite<Ctx extends CheckContext>(
  suite: SuiteDefinition<Ctx>,
  makeCtx: (base: CheckContext) => Ctx,
  { quick, signal, onEvent, now = () => performance.now() }: RunOptions,
): Promise<SuiteRun> {
  const checks = plannedChecks(suite, quick);
  const startedAt = new Date().toISOString();
  const start = now();
  const results: CheckResult[] = [];
  const output: string[] = [];
  let open = true;
  const emit = (line: string) => {
    if (!open) return;
    output.push(line);
    onEvent?.({ type: 'output', suiteId: suite.id, line });
  };
  onEvent?.({ type: 'suite-start', suiteId: suite.id, total: checks.length, startedAt });
  emit(`${suite.name}: ${checks.length} check${checks.length === 1 ? '' : 's'}${quick ? ' (quick)' : ''}`);

  let cancelled = signal.aborted;
  for (const [index, check] of checks.entries()) {
    if (cancelled || signal.aborted) {
      cancelled = true;
      break;
    }
    onEvent?.({ type: 'check-start', suiteId: suite.id, checkId: check.id, index });
    emit(`> ${check.name}`);
    const result = await runCheck(check, makeCtx, { quick, signal, now, emit });
    results.push(result);
    emit(
      `${STATUS_LABEL[result.status]} ${check.name}: ${result.detail} (${Math.round(result.durationMs)} ms)`,
    );
    onEvent?.({ type: 'check-end', suiteId: suite.id, result });
    if (result.status === 'cancelled') cancelled = true;
  }

  if (cancelled) emit('Stopped: no further check was started.');
  const failed = results.filter((r) => r.status === 'failed');
  const run: SuiteRun = {
    suiteId: suite.id,
    status: cancelled ? 'cancelled' : failed.length > 0 ? 'failed' : 'passed',
    quick,
    startedAt,
    durationMs: now() - start,
    checks: results,
    errors: failed.map((r) => `${r.name}: ${r.detail}`),
    output,
  };
  open = false;
  onEvent?.({ type: 'suite-end', run });
  return run;
}

async function runCheck<Ctx extends CheckContext>(
  check: CheckDefinition<Ctx>,
  makeCtx: (base: CheckContext) => Ctx,
  {
    quick,
    signal,
    now,
    emit,
  }: { quick: boolean; signal: AbortSignal; now: () => number; emit: (l: string) => void },
): Promise<CheckResult> {
  let live = true;
  const log = (line: string) => {
    if (live) emit(`  ${line}`);
  };
  const base = { id: check.id, name: check.name };
  const started = now();
  try {
    const outcome = await Promise.race([check.run(makeCtx({ signal, log, quick })), whenAborted(signal)]);
    if (outcome === 'aborted' || signal.aborted) {
      return { ...base, status: 'cancelled', detail: 'Stopped while running', durationMs: now() - started };
    }
    const result: CheckResult = { ...base, ...outcome, durationMs: now() - started };
    if (outcome.status === 'failed' || outcome.status === 'warning') {
      Object.assign(result, { why: check.why, fix: check.fix, docs: check.docs });
    }
    return result;
  } catch (error) {
    const durationMs = now() - started;
    if (signal.aborted) return { ...base, status: 'cancelled', detail: 'Stopped while running', durationMs };
    return {
      ...base,
      status: 'failed',
      detail: messageOf(error),
      durationMs,
      why: check.why,
      fix: check.fix,
      docs: check.docs,
    };
  } finally {
    live = false;
  }
}
