import {
  accountSettingsSchema,
  fileCountsResponseSchema,
  fileListResponseSchema,
  meResponseSchema,
  noteCountsResponseSchema,
  noteListResponseSchema,
  sessionListResponseSchema,
  storageTypesResponseSchema,
} from '@vault/contracts';
import { z } from 'zod';
import { isApiError } from '../../../lib/api-client';
import type { TestingContext } from '../model/context';
import type { CheckDefinition, SuiteDefinition } from '../model/suite';
import { describeFailure, failed, passed, schemaProblem, statusOf, throwIfAborted } from './check-helpers';

/** GET /api/health and GET /api/about (the gateway's own answers, docs/api.md "Health"). */
export const healthAnswerSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  services: z.record(z.string(), z.enum(['ok', 'down'])),
});
export const aboutAnswerSchema = z.object({
  version: z.string().nullable(),
  commit: z.string().nullable(),
  builtAt: z.string().nullable(),
  environment: z.string().nullable(),
});
const errorBodySchema = z.object({ error: z.string().min(1), code: z.string().min(1) });

/** Every answer the app's pages read, with the contract schema it must parse with. */
export const CONTRACT_ENDPOINTS: { path: string; schema: z.ZodType }[] = [
  { path: '/auth/me', schema: meResponseSchema },
  { path: '/notes?limit=1', schema: noteListResponseSchema },
  { path: '/notes/counts', schema: noteCountsResponseSchema },
  { path: '/files', schema: fileListResponseSchema },
  { path: '/files/counts', schema: fileCountsResponseSchema },
  { path: '/files/storage-types', schema: storageTypesResponseSchema },
  { path: '/auth/sessions', schema: sessionListResponseSchema },
  { path: '/auth/settings', schema: accountSettingsSchema },
  { path: '/about', schema: aboutAnswerSchema },
];

const DOCS = 'api';
type ApiCheck = CheckDefinition<TestingContext>;

/** The error body of a failed call: `{error, code}` or what is wrong with it. */
function errorBodyProblem(error: unknown): string | null {
  if (!isApiError(error)) return 'no answer';
  return schemaProblem(errorBodySchema, error.body);
}

const contract: ApiCheck = {
  id: 'api-contract',
  name: 'Answers match the contract',
  why: 'The pages read these answers; one that does not match its schema breaks a page or hides data.',
  fix: 'Run the same version of the web app and the server (see CI/CD Status); check the failing service’s logs.',
  docs: `${DOCS}-contract`,
  quick: true,
  async run(ctx) {
    const problems: string[] = [];
    for (const { path, schema } of CONTRACT_ENDPOINTS) {
      throwIfAborted(ctx.signal);
      let data: unknown;
      try {
        data = await ctx.api.get<unknown>(path, { signal: ctx.signal });
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        problems.push(describeFailure(`GET /api${path}`, error));
        continue;
      }
      const problem = schemaProblem(schema, data);
      ctx.log(`GET /api${path}: ${problem ? `does not match (${problem})` : 'matches'}`);
      if (problem) problems.push(`GET /api${path} does not match its schema: ${problem}`);
    }
    const total = CONTRACT_ENDPOINTS.length;
    if (problems.length > 0)
      return failed(`${problems.length} of ${total} answers failed: ${problems.join('; ')}`);
    return passed(`${total} answers parse with their contract schemas`, { endpoints: total });
  },
};

const health: ApiCheck = {
  id: 'api-health',
  name: 'Every service answers',
  why: 'A service that is down makes its part of the vault (notes, files, sign-in) fail.',
  fix: 'Start the service named down and look at its logs (docs/operations.md "Health endpoints").',
  docs: `${DOCS}-health`,
  quick: true,
  async run(ctx) {
    const res = await ctx.fetch(`${ctx.config.apiBaseUrl}/health`, {
      cache: 'no-store',
      credentials: 'omit',
      signal: ctx.signal,
    });
    const body: unknown = await res.json().catch(() => undefined);
    const parsed = healthAnswerSchema.safeParse(body);
    if (!parsed.success) return failed(`GET /api/health answered ${res.status} without a health report`);
    const down = Object.entries(parsed.data.services).filter(([, state]) => state === 'down');
    if (down.length > 0 || res.status !== 200) {
      return failed(
        `GET /api/health answered ${res.status}: down: ${down.map(([name]) => name).join(', ') || 'none named'}`,
      );
    }
    return passed(`all ${Object.keys(parsed.data.services).length} services answer`);
  },
};

const unauthenticated: ApiCheck = {
  id: 'api-unauthenticated',
  name: 'A call without a session is refused',
  why: 'Every vault route must refuse a caller without a valid session.',
  fix: 'The gateway’s guard is not protecting this route: update the server and report it.',
  docs: `${DOCS}-unauthenticated`,
  quick: true,
  async run(ctx) {
    // Plain fetch, no token and no cookie: exactly what a stranger sends.
    const res = await ctx.fetch(`${ctx.config.apiBaseUrl}/auth/me`, {
      cache: 'no-store',
      credentials: 'omit',
      headers: { Accept: 'application/json' },
      signal: ctx.signal,
    });
    const body: unknown = await res.json().catch(() => undefined);
    if (res.status !== 401)
      return failed(`GET /api/auth/me without a session answered ${res.status}, not 401`);
    const problem = schemaProblem(errorBodySchema, body);
    if (problem) return failed(`the 401 body lacks {error, code} (${problem})`);
    return passed(`401 ${(body as { code: string }).code}`);
  },
};

const notFound: ApiCheck = {
  id: 'api-not-found',
  name: 'Another user’s id answers 404',
  why: 'An id that is not yours must look exactly like one that does not exist (no data, no hint).',
  fix: 'The owner check of the failing route is missing: update the server and report it.',
  docs: `${DOCS}-not-found`,
  quick: false,
  async run(ctx) {
    // A fresh random v4 id: owned by nobody here, so any answer but 404 would be a leak or a bug.
    const id = crypto.randomUUID();
    const probes: [string, () => Promise<unknown>][] = [
      [`GET /api/files/{id}/metadata`, () => ctx.api.get(`/files/${id}/metadata`, { signal: ctx.signal })],
      [`GET /api/files/{id}/optimized`, () => ctx.api.get(`/files/${id}/optimized`, { signal: ctx.signal })],
      // Notes have no GET by id: a restore of an id nobody holds changes nothing.
      [
        `POST /api/notes/{id}/restore`,
        () => ctx.api.post(`/notes/${id}/restore`, undefined, { signal: ctx.signal }),
      ],
    ];
    const problems: string[] = [];
    for (const [what, call] of probes) {
      throwIfAborted(ctx.signal);
      const { status, error } = await statusOf(call);
      ctx.log(`${what}: ${status}`);
      if (status !== 404) problems.push(`${what} answered ${status}, not 404`);
      else {
        const problem = errorBodyProblem(error);
        if (problem) problems.push(`${what}: the 404 body lacks {error, code} (${problem})`);
      }
    }
    if (problems.length > 0) return failed(problems.join('; '));
    return passed(`${probes.length} routes answer 404 with {error, code}`);
  },
};

const badInput: ApiCheck = {
  id: 'api-error-body',
  name: 'Bad input answers 400 with {error, code}',
  why: 'Clients show `error` and switch on `code`; a 5xx or a bare error for bad input hides the real problem.',
  fix: 'Update the server; report the route if it still answers otherwise.',
  docs: `${DOCS}-error-body`,
  quick: false,
  async run(ctx) {
    const { status, error } = await statusOf(() => ctx.api.get('/notes?limit=zero', { signal: ctx.signal }));
    if (status !== 400) return failed(`GET /api/notes?limit=zero answered ${status}, not 400`);
    const problem = errorBodyProblem(error);
    if (problem) return failed(`the 400 body lacks {error, code} (${problem})`);
    return passed(`400 ${isApiError(error) ? error.code : ''}`.trim());
  },
};

export const apiSuite: SuiteDefinition<TestingContext> = {
  id: 'api',
  name: 'API',
  description: 'The contract against the live server, with your own session.',
  category: 'e2e',
  covers: [
    'Every answer the pages read parses with its contract schema (@vault/contracts)',
    'GET /api/health: every service answers',
    'A call without a session answers 401 {error, code}',
    'A random id answers 404 {error, code} on note and file routes',
    'Bad input answers 400 {error, code}',
  ],
  checks: [contract, health, unauthenticated, notFound, badInput],
};
