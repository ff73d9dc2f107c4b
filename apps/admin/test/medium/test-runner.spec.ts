import {
  ADMIN_PATTERNS as P,
  ErrorCode,
  startedServerTestRun,
  TEST_RUNNER_LIMITS,
  TEST_RUNNER_MESSAGES,
  type ServerTestRun,
  type TestRunnerStatus,
  type TestRunOutput,
} from '@vault/contracts';
import { startRpcService } from '@vault/server-kit';
import { adminContext, sleep } from '@vault/server-kit/testing';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { AppModule } from '../../src/app.module';
import { loadAdminConfig } from '../../src/config/admin.config';
import { adminDatabaseConfig } from '../../src/repositories/connections';
import { RUN_ERRORS } from '../../src/test-runner/run-record';
import { JEST_SUITE_COMMANDS, type SuiteCommands } from '../../src/test-runner/suite-commands';
import { TestRunStore } from '../../src/test-runner/test-run.store';
import { startRpcTestApp, testAppPerFile } from '@vault/server-kit/testing';
import { auditRows } from './support/audit-rows';

/**
 * The server test runner against real Redis and PostgreSQL. The suite table is the one thing
 * replaced: each test sets the quick `node -e` script the next run executes (or `jest`: the fixed
 * table's real command, run once below).
 */
let nextScript: string | readonly string[] = '';
const quickCommands: SuiteCommands = (suite, paths) =>
  nextScript === 'jest'
    ? JEST_SUITE_COMMANDS(suite, paths)
    : typeof nextScript === 'string'
      ? [process.execPath, '-e', nextScript]
      : nextScript;

describe('server test runner', () => {
  const t = testAppPerFile(() =>
    startRpcTestApp({
      service: 'admin',
      label: 'testrunner',
      env: { TEST_RUNNER_ENABLED: 'true', PATH: '/usr/bin:/bin', HOME: '/nonexistent' },
      loadConfig: loadAdminConfig,
      databaseConfig: (config) => adminDatabaseConfig(config.database),
      start: (config, logger) =>
        startRpcService(
          AppModule.forRoot(config, { suiteCommands: quickCommands }),
          'admin',
          config.rpc,
          logger,
        ),
      stop: (app) => app.close(),
    }),
  );
  const runner = adminContext(['tests:run', 'system:read']);
  const reader = adminContext(['system:read']);
  const { lastId, entriesAfter } = auditRows(() => t.pg);

  const start = (script: typeof nextScript, suite = 'unit'): Promise<ServerTestRun> => {
    nextScript = script;
    return t.call<ServerTestRun>(P.testRunStart, { suite }, runner);
  };
  const page = (runId: string, from: number) =>
    t.call<TestRunOutput>(P.testRunOutput, { runId, from }, reader);

  /** Pages the output until the run ended and every line is read (`from`/`next`), as the page does. */
  async function follow(runId: string, timeoutMs = 20_000): Promise<{ run: ServerTestRun; lines: string[] }> {
    const lines: string[] = [];
    for (const until = Date.now() + timeoutMs; Date.now() < until;) {
      const out = await page(runId, lines.length);
      expect(out.from).toBe(lines.length);
      expect(out.lines.length).toBeLessThanOrEqual(TEST_RUNNER_LIMITS.outputPageMax);
      lines.push(...out.lines);
      expect(out.next).toBe(lines.length);
      if (out.run.status !== 'running' && out.next >= out.run.lines) return { run: out.run, lines };
      if (out.lines.length === 0) await sleep(100);
    }
    throw new Error(`run ${runId} did not end`);
  }

  /** Gone, or a zombie nobody reaped yet: either way it runs no more. */
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
    } catch {
      return false;
    }
    try {
      return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return false;
    }
  };

  it('reports its suites and no run yet', async () => {
    const status = await t.call<TestRunnerStatus>(P.testRunnerStatus, undefined, reader);
    expect(status).toMatchObject({ enabled: true, available: true, reason: null, current: null, last: null });
    expect(status.suites.map((s) => s.id)).toEqual(['contracts', 'crypto', 'unit']);
  });

  it('streams the output in order in pages, cleaned, cut and capped, and ends passed', async () => {
    const total = TEST_RUNNER_LIMITS.outputLinesMax + 3;
    const run = await start(
      `console.log('\\u001b[32mgreen\\u001b[39m'); console.log('x'.repeat(1500));` +
        `for (let i = 2; i < ${total}; i++) console.log('line ' + i);`,
    );
    expect(run).toMatchObject({
      status: 'running',
      suite: 'unit',
      startedBy: 'test-admin',
      finishedAt: null,
    });
    const { run: ended, lines } = await follow(run.id);
    expect(ended).toMatchObject({ status: 'passed', error: null, droppedLines: 3 });
    expect(ended.lines).toBe(TEST_RUNNER_LIMITS.outputLinesMax);
    expect(ended.durationMs).toBeGreaterThanOrEqual(0);
    expect(lines).toHaveLength(TEST_RUNNER_LIMITS.outputLinesMax);
    expect(lines.slice(0, 2)).toEqual(['green', 'x'.repeat(TEST_RUNNER_LIMITS.lineCharsMax)]);
    expect(lines.slice(2)).toEqual(Array.from({ length: total - 5 }, (_, i) => `line ${i + 2}`));
    const last = await t.call<TestRunnerStatus>(P.testRunnerStatus, undefined, reader);
    expect(last.current).toBeNull();
    expect(last.last?.id).toBe(run.id);
    // Past the end: nothing, and `next` stays.
    expect(await page(run.id, 5_000)).toMatchObject({ from: 5_000, lines: [], next: 5_000 });
  });

  it('ends failed on a non-zero exit (stderr kept too), and error when the program cannot start', async () => {
    const failed = await follow((await start(`console.error('boom'); process.exit(1)`)).id);
    expect(failed.run).toMatchObject({ status: 'failed', error: null, tests: null, coverage: null });
    expect(failed.lines).toEqual(['boom']);
    const broken = await follow((await start(['/nonexistent/vault-test-runner'])).id);
    expect(broken.run).toMatchObject({ status: 'error', error: 'The test run could not start (ENOENT)' });
  });

  it('runs one at a time (409), stops a run with its whole process group, and audits both', async () => {
    const mark = await lastId();
    const run = await start(
      `const { spawn } = require('node:child_process');` +
        `const c = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });` +
        `console.log('pids ' + process.pid + ' ' + c.pid); setTimeout(() => {}, 60000);`,
    );
    const busy = await t.fail(P.testRunStart, { suite: 'contracts' }, runner);
    expect(busy.code).toBe(ErrorCode.CONFLICT);
    expect(busy.message).toBe(TEST_RUNNER_MESSAGES.busy);
    let pids: number[] = [];
    for (let i = 0; i < 100 && pids.length === 0; i += 1) {
      const line = (await page(run.id, 0)).lines[0];
      pids = line ? line.split(' ').slice(1).map(Number) : [];
      if (pids.length === 0) await sleep(50);
    }
    expect(pids).toHaveLength(2);
    expect(pids.every(alive)).toBe(true);
    expect((await t.call<TestRunnerStatus>(P.testRunnerStatus, undefined, reader)).current?.id).toBe(run.id);

    const stopped = await t.call<ServerTestRun>(P.testRunStop, { runId: run.id }, runner);
    expect(stopped).toMatchObject({ id: run.id, status: 'cancelled', error: null });
    expect(pids.filter(alive)).toEqual([]);
    // Stopping again answers the run as it is.
    expect((await t.call<ServerTestRun>(P.testRunStop, { runId: run.id }, runner)).status).toBe('cancelled');

    const entries = await entriesAfter(mark);
    expect(entries.map((e) => [e.action, e.target_type, e.target_id, e.details])).toEqual([
      ['test-run.start', 'test-run', run.id, { suite: 'unit' }],
      ['test-run.start', 'test-run', expect.any(String), { suite: 'contracts' }],
      ['test-run.start.failed', 'test-run', expect.any(String), { suite: 'contracts', error: 'CONFLICT' }],
      ['test-run.stop', 'test-run', run.id, {}],
      ['test-run.stop', 'test-run', run.id, {}],
    ]);
    expect(entries[0]).toMatchObject({ actor_id: runner.admin.id, actor_label: 'test-admin' });
  });

  it('stops a run another replica owns through the stop flag in Redis', async () => {
    const run = await start(`setTimeout(() => {}, 60000)`);
    await new TestRunStore(t.redis.client).requestStop(run.id);
    expect((await follow(run.id)).run.status).toBe('cancelled');
  });

  it('ends a run past its time limit as error', async () => {
    const { testRunner } = t.config;
    const limit = testRunner.timeoutMs;
    // The configured minimum is 10 s; the service reads the limit at each start.
    testRunner.timeoutMs = 1_000;
    try {
      const { run } = await follow((await start(`setTimeout(() => {}, 60000)`)).id);
      expect(run).toMatchObject({ status: 'error', error: RUN_ERRORS.timedOut(1) });
      expect(run.durationMs).toBeGreaterThanOrEqual(1_000);
    } finally {
      testRunner.timeoutMs = limit;
    }
  });

  it('gives the process none of the service variables: no DATABASE_URL, REDIS_URL or any other', async () => {
    expect(t.config.database.url).toContain('postgres');
    const { lines } = await follow(
      (await start(`for (const [k, v] of Object.entries(process.env)) console.log(k + '=' + v)`)).id,
    );
    expect(lines.sort()).toEqual([
      'CI=true',
      'FORCE_COLOR=0',
      'HOME=/nonexistent',
      'NODE_ENV=test',
      'NO_COLOR=1',
      'PATH=/usr/bin:/bin',
    ]);
  });

  it('reports a run whose replica died (its lock gone) as error', async () => {
    const ghost = startedServerTestRun(randomUUID(), 'crypto', 'someone');
    await new TestRunStore(t.redis.client).create(ghost);
    const status = await t.call<TestRunnerStatus>(P.testRunnerStatus, undefined, reader);
    expect(status.current).toBeNull();
    const { run } = await page(ghost.id, 0);
    expect(run).toMatchObject({ status: 'error', error: RUN_ERRORS.replicaGone });
    expect((await t.call<TestRunnerStatus>(P.testRunnerStatus, undefined, reader)).last?.id).toBe(ghost.id);
  });

  it('refuses what the caller may not do, unknown runs and suites, and a start while off', async () => {
    const mark = await lastId();
    expect((await t.fail(P.testRunStart, { suite: 'unit' }, reader)).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect((await t.fail(P.testRunStop, { runId: randomUUID() }, reader)).code).toBe(
      ErrorCode.PERMISSION_DENIED,
    );
    expect((await t.fail(P.testRunnerStatus, undefined, adminContext(['users:read']))).code).toBe(
      ErrorCode.PERMISSION_DENIED,
    );
    expect((await t.fail(P.testRunnerStatus, undefined, {})).code).toBe(ErrorCode.ADMIN_REQUIRED);
    const unknown = await t.fail(P.testRunOutput, { runId: randomUUID(), from: 0 }, reader);
    expect([unknown.code, unknown.message]).toEqual([ErrorCode.NOT_FOUND, TEST_RUNNER_MESSAGES.runNotFound]);
    const suite = await t.fail(P.testRunStart, { suite: 'echo hi' }, runner);
    expect([suite.code, suite.message]).toEqual([
      ErrorCode.VALIDATION_FAILED,
      TEST_RUNNER_MESSAGES.unknownSuite,
    ]);
    expect((await t.fail(P.testRunStart, { suite: 'unit', command: 'id' }, runner)).code).toBe(
      ErrorCode.VALIDATION_FAILED,
    );
    expect(await entriesAfter(mark)).toEqual([]);

    t.config.testRunner.enabled = false;
    try {
      const off = await t.fail(P.testRunStart, { suite: 'unit' }, runner);
      expect([off.code, off.message]).toEqual([ErrorCode.TEST_RUNNER_UNAVAILABLE, TEST_RUNNER_MESSAGES.off]);
      const status = await t.call<TestRunnerStatus>(P.testRunnerStatus, undefined, reader);
      expect(status).toMatchObject({ enabled: false, available: false, reason: TEST_RUNNER_MESSAGES.off });
    } finally {
      t.config.testRunner.enabled = true;
    }
    expect(await entriesAfter(mark)).toEqual([]);
  });

  it('runs the real contracts suite: passed, with its test counts and coverage', async () => {
    const started = Date.now();
    const { run, lines } = await follow((await start('jest', 'contracts')).id, 60_000);
    const seconds = (Date.now() - started) / 1000;
    expect(run).toMatchObject({ status: 'passed', suite: 'contracts', error: null });
    expect(run.tests!.total).toBeGreaterThan(0);
    expect(run.tests!.failed).toBe(0);
    expect(run.coverage!.lines.pct).toBeGreaterThan(0);
    expect(run.coverage!.folders.map((f) => f.path)).toEqual(['libs/contracts']);
    expect(lines.some((line) => line.startsWith('Tests:'))).toBe(true);
    // For the report: how long a real run takes here.
    process.stdout.write(`real contracts run: ${seconds.toFixed(1)} s, ${run.tests!.total} tests\n`);
  }, 90_000);
});

describe('server test runner at shutdown', () => {
  let closed = false;
  const t = testAppPerFile(() =>
    startRpcTestApp({
      service: 'admin',
      label: 'testrunnerstop',
      env: { TEST_RUNNER_ENABLED: 'true' },
      loadConfig: loadAdminConfig,
      databaseConfig: (config) => adminDatabaseConfig(config.database),
      start: (config, logger) =>
        startRpcService(
          AppModule.forRoot(config, { suiteCommands: quickCommands }),
          'admin',
          config.rpc,
          logger,
        ),
      // Closed once by the test itself, then again by the file's teardown.
      stop: async (app) => {
        if (!closed) await app.close();
        closed = true;
      },
    }),
  );

  it('kills the run and stores it as error when the admin service stops', async () => {
    nextScript = `console.log('pid ' + process.pid); setTimeout(() => {}, 60000)`;
    const run = await t.call<ServerTestRun>(P.testRunStart, { suite: 'crypto' }, adminContext(['tests:run']));
    const store = new TestRunStore(t.redis.client);
    let pid = 0;
    for (let i = 0; i < 100 && !pid; i += 1) {
      pid = Number((await store.page(run.id, 0, 1))[0]?.split(' ')[1] ?? 0);
      if (!pid) await sleep(50);
    }
    expect(pid).toBeGreaterThan(0);
    await t.service.close();
    closed = true;
    expect(await store.read(run.id)).toMatchObject({ status: 'error', error: RUN_ERRORS.shutdown });
    expect(await store.currentId()).toBeNull();
    expect(await store.lockHolder()).toBeNull();
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
