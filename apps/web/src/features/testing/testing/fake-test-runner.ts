import {
  startedServerTestRun,
  ERROR_INFO,
  SERVER_TEST_SUITES,
  TEST_RUNNER_LIMITS,
  TEST_RUNNER_MESSAGES,
  hasPermission,
  type AdminIdentity,
  type ServerTestRun,
  type ServerTestSuiteId,
} from '@vault/contracts';
import { ApiClient } from '../../../lib/api-client';
import { json, readFakeRequest } from '../../../testing/fake-server';
import { serverRunnerApi, type ServerRunnerApi } from '../api/server-runner';

export const SUPER_ADMIN: AdminIdentity = {
  id: '0b7c8d1e-2f3a-4b5c-8d6e-7f8091a2b3c4',
  email: 'root@example.org',
  username: 'root',
  role: 'super_admin',
  permissions: [],
};
export const READ_ONLY_ADMIN: AdminIdentity = {
  ...SUPER_ADMIN,
  username: 'watcher',
  role: 'admin',
  permissions: ['system:read'],
};

export interface FakeRunnerRequest {
  method: string;
  path: string;
  from: string | null;
  authorization: string | undefined;
}

const RUNS = '/api/admin/test-runner/runs';
const error = (status: number, message: string, code: string) => json(status, { error: message, code });

/**
 * The admin service's test runner as the gateway answers it (docs/api.md), scripted by the test:
 * `emit` adds output lines to a run, `finish` ends it; runs get ids in order.
 */
export class FakeTestRunner {
  readonly requests: FakeRunnerRequest[] = [];
  /** Every run's id, in the order they began. */
  readonly ids: string[] = [];
  /** null: no console session (every call 401). */
  admin: AdminIdentity | null = SUPER_ADMIN;
  /** Answers GET /api/admin/test-runner instead of the status (403 ADMIN_REQUIRED, 503...). */
  statusFailure: (() => Response) | null = null;
  /** Answers GET /api/admin/session instead of the admin (a session call that failed). */
  sessionFailure: (() => Response) | null = null;
  enabled = true;
  available = true;
  private readonly runs = new Map<string, { run: ServerTestRun; lines: string[] }>();
  private current: string | null = null;
  private last: string | null = null;
  private seq = 0;

  api(): ServerRunnerApi {
    return serverRunnerApi(new ApiClient({ fetch: this.fetch }));
  }

  calls(method: string, path: string): FakeRunnerRequest[] {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  /** A run as if an admin had started it (before or while the page is open). */
  begin(suite: ServerTestSuiteId, startedBy = 'root'): ServerTestRun {
    this.seq += 1;
    const id = `00000000-0000-4000-8000-${String(this.seq).padStart(12, '0')}`;
    const run = startedServerTestRun(id, suite, startedBy);
    this.runs.set(id, { run, lines: [] });
    this.ids.push(id);
    this.current = id;
    return run;
  }

  emit(id: string, lines: string[]): void {
    const entry = this.entry(id);
    entry.lines.push(...lines);
    entry.run = { ...entry.run, lines: entry.lines.length };
  }

  finish(id: string, patch: Partial<ServerTestRun> & Pick<ServerTestRun, 'status'>): ServerTestRun {
    const entry = this.entry(id);
    entry.run = {
      ...entry.run,
      finishedAt: new Date().toISOString(),
      durationMs: 14_200,
      ...patch,
    };
    if (this.current === id) this.current = null;
    this.last = id;
    return entry.run;
  }

  run(id: string): ServerTestRun {
    return this.entry(id).run;
  }

  private entry(id: string) {
    const entry = this.runs.get(id);
    if (!entry) throw new Error(`no fake run ${id}`);
    return entry;
  }

  private status() {
    const reason = !this.enabled
      ? TEST_RUNNER_MESSAGES.off
      : !this.available
        ? TEST_RUNNER_MESSAGES.noSources
        : null;
    return {
      enabled: this.enabled,
      available: this.enabled && this.available,
      reason,
      suites: SERVER_TEST_SUITES.map((s) => ({ ...s })),
      current: this.current ? this.run(this.current) : null,
      last: this.last ? this.run(this.last) : null,
    };
  }

  fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const { url, method, path, headers } = readFakeRequest(input, init);
    this.requests.push({
      method,
      path,
      from: url.searchParams.get('from'),
      authorization: headers['authorization'],
    });
    if (!this.admin) return error(401, 'Admin session required', 'UNAUTHORIZED');
    const can = (permission: 'tests:run' | 'system:read') =>
      hasPermission(this.admin, permission)
        ? null
        : error(403, ERROR_INFO.PERMISSION_DENIED.message, 'PERMISSION_DENIED');
    if (method === 'GET' && path === '/api/admin/session') {
      if (this.sessionFailure) return this.sessionFailure();
      return json(200, {
        admin: this.admin,
        expiresAt: '2026-12-01T00:00:00Z',
        idleExpiresAt: '2026-12-01T00:00:00Z',
      });
    }
    if (method === 'GET' && path === '/api/admin/test-runner') {
      return this.statusFailure?.() ?? can('system:read') ?? json(200, this.status());
    }
    if (method === 'POST' && path === RUNS) {
      const denied = can('tests:run');
      if (denied) return denied;
      if (!this.enabled || !this.available) {
        return error(403, this.status().reason ?? '', 'TEST_RUNNER_UNAVAILABLE');
      }
      if (this.current) return error(409, TEST_RUNNER_MESSAGES.busy, 'CONFLICT');
      const { suite } = JSON.parse(String(init.body)) as { suite: ServerTestSuiteId };
      return json(202, this.begin(suite, this.admin.username));
    }
    const [, id, stop] = /^\/api\/admin\/test-runner\/runs\/([^/]+)(\/stop)?$/.exec(path) ?? [];
    const entry = id ? this.runs.get(id) : undefined;
    if (!entry) return error(404, TEST_RUNNER_MESSAGES.runNotFound, 'NOT_FOUND');
    if (method === 'POST' && stop) {
      return (
        can('tests:run') ??
        json(
          200,
          entry.run.status === 'running' ? this.finish(entry.run.id, { status: 'cancelled' }) : entry.run,
        )
      );
    }
    if (method === 'GET' && !stop) {
      const from = Number(url.searchParams.get('from') ?? '0');
      const lines = entry.lines.slice(from, from + TEST_RUNNER_LIMITS.outputPageMax);
      return json(200, { run: entry.run, from, lines, next: from + lines.length });
    }
    return error(404, 'Not found', 'NOT_FOUND');
  };
}

export const COVERAGE = {
  lines: { covered: 912, total: 1000, pct: 91.2 },
  statements: { covered: 950, total: 1040, pct: 91.35 },
  functions: { covered: 180, total: 200, pct: 90 },
  branches: { covered: 300, total: 400, pct: 75 },
  folders: [{ path: 'libs/contracts', lines: { covered: 912, total: 1000, pct: 91.2 } }],
};
