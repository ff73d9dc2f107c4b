// The local runner's own guarantees (scripts/lib/stack.mjs startServices), proved on a runner in a
// process of its own (runner.mjs) so that it can be killed: a service that exits without being asked
// is restarted with a doubling wait while the others keep their processes; one that keeps failing
// at start is given up on, and the runner then exits non-zero; and when the runner dies, even by
// SIGKILL, its services end too.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT, sleep } from '../util.mjs';

const RUNNER = join(ROOT, 'scripts', 'lib', 'chaos', 'runner.mjs');
const FAKE = 'scripts/lib/chaos/fake-service.mjs';
// eslint-disable-next-line no-control-regex
export const stripColors = (text) => text.replace(/\x1b\[[0-9;]*m/g, '');

/** Whether a process runs (a zombie, ended but not yet reaped, does not). */
export function alive(pid) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Polls `fn` until it returns a truthy value; throws `what` after `ms`. */
export async function until(fn, ms, what) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms / 1000} s`);
    await sleep(50);
  }
}

/**
 * Starts runner.mjs with `services` ([{name, main, env}], mains relative to the repo) and follows
 * its output: the log lines (colors stripped) and the latest process ids it reported.
 */
export function spawnRunner(services, { env = {}, policy = {} } = {}) {
  const child = spawn(process.execPath, [RUNNER, JSON.stringify({ services, env, policy })], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = [];
  let pids = {};
  createInterface({ input: child.stdout }).on('line', (raw) => {
    const line = stripColors(raw);
    if (line.startsWith('{"pids"')) pids = JSON.parse(line).pids;
    else lines.push({ at: Date.now(), line });
  });
  createInterface({ input: child.stderr }).on('line', (line) => lines.push({ at: Date.now(), line }));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  return {
    child,
    exited,
    pids: () => pids,
    lines: () => lines.map((l) => l.line),
    /** The first log line matching `pattern` ({at, line}), waiting for it up to `ms`. */
    line: (pattern, ms, what) =>
      until(() => lines.find((l) => pattern.test(l.line)), ms, what ?? `a runner line matching ${pattern}`),
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

const fake = (name, env = {}) => ({ name, main: FAKE, env });

/** The supervision checks, for tierChecks' `check`. Returns the figures measured. */
export async function supervisionChecks(check) {
  const figures = {};

  await check(
    'runner: a killed service is restarted with a doubling wait, the others untouched',
    async () => {
      const runner = spawnRunner([fake('alpha'), fake('beta')]);
      try {
        const first = await until(
          () => runner.pids().alpha && runner.pids().beta && runner.pids(),
          10_000,
          'both up',
        );
        const t0 = Date.now();
        process.kill(first.alpha, 'SIGKILL');
        await runner.line(
          /^\[vault\] alpha exited unexpectedly \(SIGKILL\); restarting in 0\.5 s \(restart 1\)$/,
          5000,
        );
        const second = await until(
          () => runner.pids().alpha && runner.pids().alpha !== first.alpha && runner.pids(),
          5000,
          'alpha back',
        );
        const back1 = Date.now() - t0;
        assert.ok(back1 >= 450, `alpha came back after ${back1} ms, before its 0.5 s wait`);
        assert.equal(second.beta, first.beta, 'beta was restarted too');
        assert.ok(alive(second.beta));
        await runner.line(/^\[vault\] alpha started again \(pid \d+, restart 1\)$/, 2000);
        // A second failure soon after the first: the wait doubles.
        const t1 = Date.now();
        process.kill(second.alpha, 'SIGKILL');
        await runner.line(
          /^\[vault\] alpha exited unexpectedly \(SIGKILL\); restarting in 1\.0 s \(restart 2\)$/,
          5000,
        );
        const third = await until(
          () => runner.pids().alpha && runner.pids().alpha !== second.alpha && runner.pids(),
          5000,
          'alpha back again',
        );
        const back2 = Date.now() - t1;
        assert.ok(back2 >= 950, `alpha came back after ${back2} ms, before its 1.0 s wait`);
        assert.equal(third.beta, first.beta, 'beta was restarted too');
        figures.fakeRestartMs = [back1, back2];
        // Ctrl-C (SIGTERM here) still stops everything cleanly.
        runner.child.kill('SIGTERM');
        assert.equal(await runner.exited, 0);
        await until(
          () => !alive(third.alpha) && !alive(third.beta),
          5000,
          'services stopped with the runner',
        );
      } finally {
        await runner.kill();
      }
    },
  );

  await check(
    'runner: a service failing at start is given up on after 5 tries, and the runner exits 1',
    async () => {
      const runner = spawnRunner([fake('steady'), fake('broken', { CHAOS_FAKE_CRASH: '1' })]);
      try {
        const status = await Promise.race([runner.exited, sleep(30_000).then(() => 'still running')]);
        const lines = runner.lines();
        const waits = lines
          .map((l) =>
            /^\[vault\] broken exited unexpectedly \(code 1\); restarting in ([\d.]+) s \(restart (\d)\)$/.exec(
              l,
            ),
          )
          .filter(Boolean)
          .map((m) => m[1]);
        assert.deepEqual(waits, ['0.5', '1.0', '2.0', '4.0'], `restart waits: ${lines.join('\n')}`);
        assert.ok(
          lines.some((l) =>
            /^\[vault\] broken exited unexpectedly \(code 1\) 5 times in a row, each within 30\.0 s of starting; not restarting it again/.test(
              l,
            ),
          ),
          `no give-up line in:\n${lines.join('\n')}`,
        );
        assert.equal(status, 1, 'the runner should exit 1 once it gives up');
        const { steady } = runner.pids();
        if (steady) await until(() => !alive(steady), 5000, 'the steady service stopped with the runner');
      } finally {
        await runner.kill();
      }
    },
  );

  await check('runner: killed with SIGKILL, its services end too', async () => {
    const runner = spawnRunner([fake('alpha'), fake('beta')]);
    const pids = await until(
      () => runner.pids().alpha && runner.pids().beta && runner.pids(),
      10_000,
      'both up',
    );
    await runner.kill();
    const t0 = Date.now();
    try {
      await until(
        () => !alive(pids.alpha) && !alive(pids.beta),
        15_000,
        `services ${pids.alpha}, ${pids.beta} still running after the runner died`,
      );
      figures.fakeOrphanGoneMs = Date.now() - t0;
    } finally {
      // Whatever the outcome, nothing of this check is left running.
      for (const pid of [pids.alpha, pids.beta]) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  return figures;
}
