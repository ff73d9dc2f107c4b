import { spawn, type ChildProcess } from 'node:child_process';
import { LineSplitter } from './output-lines';

/** How a run's process ended: its exit code or the signal that ended it; `failure` when it never started. */
export interface ProcessEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  failure: string | null;
}

/**
 * Sends `signal` to the process group of `pid` (the run's process and everything it started: Jest's
 * workers). A group already gone is fine.
 */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: nothing left in the group.
  }
}

/** A spawn failure in a few words (`ENOENT`), never a stack trace or the command line. */
function shortFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return `The test run could not start${code ? ` (${code})` : ''}`;
}

/**
 * Starts `argv` without a shell in `cwd` with exactly `env`, in a process group of its own
 * (`detached`), so a stop or a timeout ends Jest's workers with it. Each output line (stdout and
 * stderr, cleaned) goes to `onLine`; `ended` resolves once, when the process is gone and its output
 * read. Whatever the group left behind when its leader exits is killed then.
 */
export function startRunProcess(
  argv: readonly string[],
  options: { cwd: string; env: Record<string, string> },
  onLine: (line: string) => void,
): { child: ChildProcess | null; ended: Promise<ProcessEnd> } {
  let child: ChildProcess;
  try {
    child = spawn(argv[0]!, argv.slice(1), {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    return {
      child: null,
      ended: Promise.resolve({ code: null, signal: null, failure: shortFailure(error) }),
    };
  }
  const ended = new Promise<ProcessEnd>((resolve) => {
    let failure: string | null = null;
    for (const stream of [child.stdout!, child.stderr!]) {
      const splitter = new LineSplitter();
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => splitter.push(chunk).forEach(onLine));
      stream.on('end', () => splitter.end().forEach(onLine));
    }
    child.once('error', (error) => {
      failure = shortFailure(error);
      // A process that never started emits no exit and may emit no close.
      if (child.pid === undefined) resolve({ code: null, signal: null, failure });
    });
    child.once('exit', () => signalGroup(child.pid, 'SIGKILL'));
    child.once('close', (code, signal) => resolve({ code, signal, failure }));
  });
  return { child, ended };
}
