import type { ServerTestRun } from '@vault/contracts';
import type { ProcessEnd } from './run-process';

/** Why a run ended in `error`: short sentences, never a stack trace. */
export const RUN_ERRORS = {
  replicaGone: 'The admin service that ran it stopped before it finished',
  shutdown: 'The admin service stopped during the run',
  lockLost: 'The run lost its lock in Redis and was stopped',
  timedOut: (seconds: number) => `Timed out after ${seconds} s`,
  killed: (signal: string) => `The test process was ended by ${signal}`,
};

export type RunResult = Pick<ServerTestRun, 'status' | 'error'>;

/** How a process that ended by itself ended: exit 0 passed, another code failed, a signal or no start an error. */
export function resultOf(end: ProcessEnd): RunResult {
  if (end.failure) return { status: 'error', error: end.failure };
  if (end.code === null) return { status: 'error', error: RUN_ERRORS.killed(end.signal ?? 'a signal') };
  return { status: end.code === 0 ? 'passed' : 'failed', error: null };
}

/** The run as it ended now. */
export function endedRun(run: ServerTestRun, result: RunResult): ServerTestRun {
  const finished = new Date();
  return {
    ...run,
    ...result,
    finishedAt: finished.toISOString(),
    durationMs: Math.max(0, finished.getTime() - Date.parse(run.startedAt)),
  };
}
