/**
 * The server test runner through the gateway (issue 15, docs/api.md "Admin"): admins only, reading
 * with `system:read`, starting and stopping with `tests:run`, a suite of the fixed list only, one
 * run at a time, the output paged until the run ends with its counts and coverage, a stop, and both
 * actions in the audit log. The e2e stack turns the runner on (scripts/e2e.mjs).
 */
import { randomUUID } from 'node:crypto';
import {
  ErrorCode,
  TEST_RUNNER_MESSAGES,
  type AuditList,
  type ServerTestRun,
  type TestRunnerStatus,
  type TestRunOutput,
} from '@vault/contracts';
import { signUp } from '../support/accounts';
import { adminSignIn, createAdmin, type AdminSignIn } from '../support/admin';
import { expectError, UUID_V4 } from '../support/expect';
import { ApiClient } from '../support/http';

const BASE = '/api/admin/test-runner';
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('server test runner (API)', () => {
  let root: AdminSignIn;

  beforeAll(async () => {
    root = await adminSignIn(await createAdmin('super_admin'));
  });

  /** Pages the output from 0 until the run ended and every line is read. */
  async function follow(runId: string, timeoutMs = 50_000): Promise<{ run: ServerTestRun; lines: string[] }> {
    const lines: string[] = [];
    for (const until = Date.now() + timeoutMs; Date.now() < until;) {
      const res = await root.client.get<TestRunOutput>(`${BASE}/runs/${runId}?from=${lines.length}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      lines.push(...res.body.lines);
      expect(res.body.next).toBe(lines.length);
      if (res.body.run.status !== 'running' && res.body.next >= res.body.run.lines) {
        return { run: res.body.run, lines };
      }
      if (res.body.lines.length === 0) await sleep(300);
    }
    throw new Error(`run ${runId} did not end`);
  }

  it('is for admins only: 403 ADMIN_REQUIRED to a regular account, 401 without a console session', async () => {
    const plain = await signUp();
    for (const [method, path] of [
      ['GET', BASE],
      ['POST', `${BASE}/runs`],
      ['GET', `${BASE}/runs/${randomUUID()}`],
      ['POST', `${BASE}/runs/${randomUUID()}/stop`],
    ] as const) {
      const init = method === 'POST' ? { json: { suite: 'contracts' } } : {};
      const res = await plain.client.request(method, path, init);
      expect([method, path, res.status, (res.body as { code?: string }).code]).toEqual([
        method,
        path,
        403,
        ErrorCode.ADMIN_REQUIRED,
      ]);
      expect((await new ApiClient('nobody').request(method, path, init)).status).toBe(401);
    }
  });

  it('lets system:read see the status, but not start a run (403 PERMISSION_DENIED)', async () => {
    const reader = await adminSignIn(await createAdmin('admin', ['system:read']));
    const status = await reader.client.get<TestRunnerStatus>(BASE);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ enabled: true, available: true, reason: null });
    expect(status.body.suites.map((s) => s.id)).toEqual(['contracts', 'crypto', 'unit']);
    const start = await reader.client.post(`${BASE}/runs`, { suite: 'contracts' });
    expect(start.status).toBe(403);
    expect((start.body as { code: string }).code).toBe(ErrorCode.PERMISSION_DENIED);
  });

  it('refuses a suite outside the list (400), a bad run id (400) and an unknown run (404)', async () => {
    expectError(
      await root.client.post(`${BASE}/runs`, { suite: 'rm -rf /' }),
      400,
      TEST_RUNNER_MESSAGES.unknownSuite,
    );
    expect((await root.client.post(`${BASE}/runs`, { suite: 'unit', command: 'id' })).status).toBe(400);
    expect((await root.client.get(`${BASE}/runs/not-a-uuid`)).status).toBe(400);
    expect((await root.client.get(`${BASE}/runs/${randomUUID()}?from=-1`)).status).toBe(400);
    expectError(
      await root.client.get(`${BASE}/runs/${randomUUID()}`),
      404,
      TEST_RUNNER_MESSAGES.runNotFound,
      {
        code: ErrorCode.NOT_FOUND,
      },
    );
    expect((await root.client.post(`${BASE}/runs/${randomUUID()}/stop`)).status).toBe(404);
  });

  it('runs the contracts suite once at a time, streams its output and ends passed with counts and coverage', async () => {
    const started = await root.client.post<ServerTestRun>(`${BASE}/runs`, { suite: 'contracts' });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({
      suite: 'contracts',
      status: 'running',
      startedBy: expect.any(String),
    });
    expect(started.body.id).toMatch(UUID_V4);

    const second = await root.client.post(`${BASE}/runs`, { suite: 'crypto' });
    expectError(second, 409, TEST_RUNNER_MESSAGES.busy, { code: ErrorCode.CONFLICT });
    expect((await root.client.get<TestRunnerStatus>(BASE)).body.current?.id).toBe(started.body.id);

    const { run, lines } = await follow(started.body.id);
    expect(run).toMatchObject({ status: 'passed', error: null, droppedLines: 0 });
    expect(run.tests!.total).toBeGreaterThan(0);
    expect(run.tests!.passed).toBe(run.tests!.total - run.tests!.skipped);
    expect(run.coverage!.lines.pct).toBeGreaterThan(0);
    expect(run.coverage!.folders.map((f) => f.path)).toContain('libs/contracts');
    expect(lines.some((line) => line.startsWith('Tests:'))).toBe(true);
    // Plain text: no colour escapes reach the page.
    expect(lines.join('\n')).not.toContain('\u001b[');

    const status = (await root.client.get<TestRunnerStatus>(BASE)).body;
    expect(status.current).toBeNull();
    expect(status.last).toMatchObject({ id: run.id, status: 'passed' });
  });

  it('stops a unit run: cancelled; start and stop are in the audit log', async () => {
    const started = await root.client.post<ServerTestRun>(`${BASE}/runs`, { suite: 'unit' });
    expect(started.status).toBe(202);
    await sleep(1_000);
    const stopped = await root.client.post<ServerTestRun>(`${BASE}/runs/${started.body.id}/stop`);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ id: started.body.id, status: 'cancelled' });
    expect((await root.client.get<TestRunnerStatus>(BASE)).body.current).toBeNull();

    const log = (await root.client.get<AuditList>('/api/admin/audit?limit=50')).body;
    const ofRun = log.entries.filter((e) => e.targetId === started.body.id).map((e) => e.action);
    expect(ofRun.sort()).toEqual(['test-run.start', 'test-run.stop']);
    const start = log.entries.find((e) => e.targetId === started.body.id && e.action === 'test-run.start');
    expect(start).toMatchObject({ targetType: 'test-run', details: { suite: 'unit' } });
  });
});
