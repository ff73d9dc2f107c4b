import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import {
  ErrorCode,
  startedServerTestRun,
  TEST_RUNNER_LIMITS,
  TEST_RUNNER_MESSAGES,
  VaultError,
  type ServerTestRun,
  type ServerTestSuiteId,
} from '@vault/contracts';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AdminConfig } from '../config/admin.config';
import { ADMIN_CONFIG } from '../repositories/connections';
import { signalGroup, startRunProcess, type ProcessEnd } from './run-process';
import { endedRun, resultOf, RUN_ERRORS, type RunResult } from './run-record';
import { RunOutputBuffer } from './run-output-buffer';
import { readRunReports } from './run-reports';
import { TEST_SUITE_COMMANDS, type SuiteCommands } from './suite-commands';
import { TestRunStore } from './test-run.store';

const LOCK_TTL_MS = 15_000;
const HEARTBEAT_MS = 5_000;
const STOP_POLL_MS = 500;
const FLUSH_MS = 250;
/** After SIGTERM, the group gets this long before SIGKILL. */
const KILL_GRACE_MS = 5_000;

/** A run this replica started, while its process lives. */
interface ActiveRun {
  run: ServerTestRun;
  child: ChildProcess | null;
  output: RunOutputBuffer;
  /** Why it is being ended, when not by itself (stop, timeout, shutdown, lost lock). */
  ending: RunResult | null;
  timers: NodeJS.Timeout[];
  done: Promise<void>;
  /** Its process is gone: no signal may be sent to its group any more (the id could be reused). */
  exited: boolean;
}

/**
 * Runs the fixed suites one at a time across every replica (docs/threat-model.md): the process
 * and its lifecycle here, the state in Redis (TestRunStore) so any replica answers the status,
 * output and stop calls.
 */
@Injectable()
export class TestRunnerService implements OnModuleDestroy {
  private readonly logger = new Logger(TestRunnerService.name);
  private readonly active = new Map<string, ActiveRun>();

  constructor(
    @Inject(ADMIN_CONFIG) private readonly config: AdminConfig,
    @Inject(TEST_SUITE_COMMANDS) private readonly commands: SuiteCommands,
    private readonly store: TestRunStore,
  ) {}

  /** Starts `suite` as run `runId`; 409 while another run holds the lock. */
  async start(runId: string, suite: ServerTestSuiteId, startedBy: string): Promise<ServerTestRun> {
    await this.current();
    if (!(await this.store.acquireLock(runId, LOCK_TTL_MS))) {
      throw new VaultError(ErrorCode.CONFLICT, TEST_RUNNER_MESSAGES.busy);
    }
    const run = startedServerTestRun(runId, suite, startedBy);
    let outDir: string | undefined;
    try {
      outDir = await mkdtemp(join(tmpdir(), 'vault-test-run-'));
      await this.store.create(run);
    } catch (error) {
      if (outDir) await rm(outDir, { recursive: true, force: true }).catch(() => undefined);
      await this.store.releaseLock(runId);
      throw error;
    }
    this.launch(run, outDir);
    return run;
  }

  /** The run going on (null when none); one whose replica died is stored as `error` first. */
  async current(): Promise<ServerTestRun | null> {
    const id = await this.store.currentId();
    const run = id && (await this.store.read(id)) ? await this.read(id) : null;
    return run?.status === 'running' ? run : null;
  }

  async last(): Promise<ServerTestRun | null> {
    const id = await this.store.lastId();
    return id ? this.store.read(id) : null;
  }

  /** A run as it is now (a dead replica's run reported as `error`); 404 when unknown. */
  async read(runId: string): Promise<ServerTestRun> {
    const run = await this.store.read(runId);
    if (!run) throw new VaultError(ErrorCode.NOT_FOUND, TEST_RUNNER_MESSAGES.runNotFound);
    if (run.status !== 'running' || this.active.has(runId) || (await this.runnerAlive(runId))) return run;
    await this.store.finish(endedRun(run, { status: 'error', error: RUN_ERRORS.replicaGone }));
    return (await this.store.read(runId)) ?? run;
  }

  /**
   * Whether the replica of a run read as `running` still holds its lock. Asked twice: a run that
   * finished between the reads was stored before its lock went, so the second read sees it ended.
   */
  private async runnerAlive(runId: string): Promise<boolean> {
    if ((await this.store.lockHolder()) === runId) return true;
    const again = await this.store.read(runId);
    return again?.status !== 'running' || (await this.store.lockHolder()) === runId;
  }

  /** Output lines from `from` (at most a page). The run is read first, so a run that ended has them all. */
  async output(runId: string, from: number): Promise<{ run: ServerTestRun; lines: string[] }> {
    const run = await this.read(runId);
    return { run, lines: await this.store.page(runId, from, TEST_RUNNER_LIMITS.outputPageMax) };
  }

  /**
   * Stops a run (SIGTERM to its process group, SIGKILL after 5 s): here when this replica runs it,
   * else through a flag its replica polls. Answers the run once it ended (or as it is after a wait).
   */
  async stop(runId: string): Promise<ServerTestRun> {
    const run = await this.read(runId);
    if (run.status !== 'running') return run;
    const local = this.active.get(runId);
    if (local) {
      this.end(local, { status: 'cancelled', error: null });
      await within(local.done, KILL_GRACE_MS + 2_000);
      return this.read(runId);
    }
    await this.store.requestStop(runId);
    for (const until = Date.now() + KILL_GRACE_MS + 2_000; Date.now() < until; await sleep(200)) {
      const now = await this.read(runId);
      if (now.status !== 'running') return now;
    }
    return this.read(runId);
  }

  /** Service shutdown: every run here ends as `error`, its process group killed. */
  async onModuleDestroy(): Promise<void> {
    const runs = [...this.active.values()];
    for (const active of runs) this.end(active, { status: 'error', error: RUN_ERRORS.shutdown }, 0);
    await within(Promise.all(runs.map((a) => a.done)), KILL_GRACE_MS);
  }

  private launch(run: ServerTestRun, outDir: string): void {
    const { root, childEnv, timeoutMs } = this.config.testRunner;
    const output = new RunOutputBuffer(
      (lines, dropped) => this.store.append(run.id, lines, dropped),
      (error) => this.logger.warn(`Test run output not stored: ${message(error)}`),
    );
    const a: ActiveRun = {
      run,
      child: null,
      output,
      ending: null,
      timers: [],
      done: Promise.resolve(),
      exited: false,
    };
    const argv = this.commands(run.suite, { root, outDir });
    const { child, ended } = startRunProcess(argv, { cwd: root, env: childEnv }, (line) => output.add(line));
    a.child = child;
    a.done = ended.then((end) => this.finish(a, end, outDir));
    this.active.set(run.id, a);
    a.timers.push(
      setInterval(() => output.flush(), FLUSH_MS),
      setInterval(() => void this.heartbeat(a), HEARTBEAT_MS),
      setInterval(() => void this.pollStop(a), STOP_POLL_MS),
      setTimeout(
        () => this.end(a, { status: 'error', error: RUN_ERRORS.timedOut(timeoutMs / 1000) }),
        timeoutMs,
      ),
    );
  }

  /** Ends a run for `reason`: SIGTERM to its group, SIGKILL after `graceMs`. The first reason wins. */
  private end(a: ActiveRun, reason: NonNullable<ActiveRun['ending']>, graceMs = KILL_GRACE_MS): void {
    if (a.exited) return;
    a.ending ??= reason;
    signalGroup(a.child?.pid, graceMs > 0 ? 'SIGTERM' : 'SIGKILL');
    if (graceMs > 0) {
      const timer = setTimeout(() => signalGroup(a.child?.pid, 'SIGKILL'), graceMs);
      timer.unref();
      a.timers.push(timer);
    }
  }

  private async heartbeat(a: ActiveRun): Promise<void> {
    const held = await this.store.refreshLock(a.run.id, LOCK_TTL_MS).catch(() => true);
    if (!held) this.end(a, { status: 'error', error: RUN_ERRORS.lockLost });
  }

  private async pollStop(a: ActiveRun): Promise<void> {
    if (!a.ending && (await this.store.stopRequested(a.run.id).catch(() => false))) {
      this.end(a, { status: 'cancelled', error: null });
    }
  }

  /** The process is gone: store its result, then free the lock for the next run. */
  private async finish(a: ActiveRun, end: ProcessEnd, outDir: string): Promise<void> {
    a.exited = true;
    for (const timer of a.timers) clearTimeout(timer);
    try {
      await a.output.drain();
      const reports = await readRunReports(outDir, this.config.testRunner.root);
      await this.store.finish({ ...endedRun(a.run, a.ending ?? resultOf(end)), ...reports });
    } catch (error) {
      this.logger.error(`Test run ${a.run.id} could not be stored: ${message(error)}`);
    } finally {
      await rm(outDir, { recursive: true, force: true }).catch(() => undefined);
      await this.store.releaseLock(a.run.id).catch(() => undefined);
      this.active.delete(a.run.id);
    }
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for `promise`, at most `ms` (the timer does not outlive it). */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));
