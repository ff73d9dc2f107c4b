import {
  adminSessionResponseSchema,
  serverTestRunSchema,
  testRunOutputSchema,
  testRunnerStatusSchema,
  type AdminSessionResponse,
  type ServerTestRun,
  type ServerTestSuiteId,
  type TestRunOutput,
  type TestRunnerStatus,
} from '@vault/contracts';
import { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';

/**
 * The server runner's calls (docs/testing-dashboard.md "Server runner"), made with the admin
 * console's session: the HttpOnly `vault_admin` cookie scoped to /api/admin, sent by the browser.
 * The user's access token is never sent to the admin API, so the client is a sessionless copy of
 * the app's (what the console's AdminApiClient.from does; a feature cannot import another).
 */
export interface ServerRunnerApi {
  /** GET /api/admin/session: who is signed in to the console, with their permissions. */
  session(signal?: AbortSignal): Promise<AdminSessionResponse>;
  /** GET /api/admin/test-runner (system:read). */
  status(signal?: AbortSignal): Promise<TestRunnerStatus>;
  /** POST /api/admin/test-runner/runs {suite} (tests:run): 202 the run; 409 one is running. */
  start(suite: ServerTestSuiteId): Promise<ServerTestRun>;
  /** GET /api/admin/test-runner/runs/:runId?from=N: the lines from N; call again with `next`. */
  output(runId: string, from: number, signal?: AbortSignal): Promise<TestRunOutput>;
  /** POST /api/admin/test-runner/runs/:runId/stop (tests:run). */
  stop(runId: string): Promise<ServerTestRun>;
}

const RUNS = '/admin/test-runner/runs';

export function serverRunnerApi(app: ApiClient): ServerRunnerApi {
  const admin = new ApiClient(app.sessionlessOptions());
  const run = (id: string) => `${RUNS}/${encodeURIComponent(id)}`;
  return {
    session: async (signal) =>
      parseResponse(adminSessionResponseSchema, await admin.get<unknown>('/admin/session', { signal })),
    status: async (signal) =>
      parseResponse(testRunnerStatusSchema, await admin.get<unknown>('/admin/test-runner', { signal })),
    start: async (suite) => parseResponse(serverTestRunSchema, await admin.post<unknown>(RUNS, { suite })),
    output: async (runId, from, signal) =>
      parseResponse(testRunOutputSchema, await admin.get<unknown>(`${run(runId)}?from=${from}`, { signal })),
    stop: async (runId) =>
      parseResponse(serverTestRunSchema, await admin.post<unknown>(`${run(runId)}/stop`)),
  };
}
