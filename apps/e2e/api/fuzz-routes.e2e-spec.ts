/**
 * Every contract schema against every route (docs/fuzzing.md): the routes come from the OpenAPI
 * document the gateway serves, so a new route is fuzzed without editing this file. Each operation
 * gets generated path parameters, queries and bodies (valid ones built from its schema, near-valid
 * mutations of them, arbitrary JSON, wrong types, empty and huge values, text that is not JSON),
 * signed in as its security asks and again without credentials or with forged ones. Whatever is
 * sent: never a 5xx; every 4xx is JSON with an error code and a message; no stack trace in any
 * answer; and no service logs an unexpected error meanwhile.
 *
 * Left out, on purpose (each still fuzzed without the credential it would end):
 * - POST /api/auth/logout signed in, and DELETE /api/admin/session with the admin cookie: they end
 *   the session the fuzzer runs on (they take no input to generate).
 * - Valid bodies of POST /api/admin/test-runner/runs (starts a real test suite: minutes of both
 *   cores) and POST /api/admin/scans/rescan-all (queues a scan of every file of the stack, which
 *   the specs after this one would wait behind): only bodies their schema refuses are sent.
 * State-changing /api/auth routes (password, 2FA, recovery, account deletion, sessions) are sent
 * as a throwaway account, so that a lockout or a revoked session there cannot end the fuzzing
 * account's own.
 *
 * FUZZ_ROUTE='POST /api/notes' fuzzes one operation only (to replay a failure with its FUZZ_PATH).
 */
import { randomUUID } from 'node:crypto';
import { ADMIN_COOKIE, ErrorCode, REFRESH_COOKIE } from '@vault/contracts';
import { fuzz, fuzzSettings, hostileString, mutationOf, type FuzzSettings } from '@vault/contracts/testing';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { signUp, type TestAccount } from '../support/accounts';
import { adminSignIn, createAdmin } from '../support/admin';
import { e2eEnv } from '../support/env';
import { readLogs, settleLogs } from '../support/logs';

type JsonSchema = Record<string, unknown>;

interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
}

interface Operation {
  method: string;
  path: string;
  /** `METHOD /path` as the document names it. */
  key: string;
  tag: string;
  auth: 'public' | 'bearer' | 'optional' | 'refresh' | 'admin';
  params: Param[];
  body?: { mediaType: string; schema: JsonSchema };
}

interface OpenApiDocument {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, JsonSchema> };
}

/** What one generated request is made of. */
interface Generated {
  identity: 'signed-in' | 'none' | 'forged';
  pathValues: Record<string, string>;
  query: Array<[string, string]>;
  headers: Record<string, string>;
  body: { text: string | Buffer; contentType: string | undefined } | undefined;
}

const HTTP_METHODS = new Set(['get', 'head', 'post', 'put', 'delete', 'patch']);
/** Valid bodies of these start work far beyond the request (see the header comment). */
const ONLY_INVALID_BODIES = new Set(['POST /api/admin/test-runner/runs', 'POST /api/admin/scans/rescan-all']);
/** These end the very session they are sent with (see the header comment). */
const NOT_SIGNED_IN = new Set(['POST /api/auth/logout', 'DELETE /api/admin/session']);
/** A stack frame, a source path or a module path: none may reach a client. */
const STACK_RE = /\n\s+at [^\n]*\(|\bat [\w.<>]+ \([^)]*:\d+:\d+\)|node_modules[\\/]|\/work\/|\.ts:\d+:\d+/;
/**
 * Forged credentials are mutations of this token-shaped text (EdDSA header, claims, a 64-byte
 * signature), not of the run's real token, so that a seed gives the same requests every run.
 */
const FORGED_BASE = [
  { alg: 'EdDSA', typ: 'JWT' },
  { sub: '3f2b8c1e-9d4a-4e6f-8a1b-2c3d4e5f6a7b', sid: '7a1c2d3e-4f50-4612-9a3b-4c5d6e7f8091', role: 'admin' },
]
  .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
  .concat('A'.repeat(86))
  .join('.');
/** The most characters of a string a schema-built value gets (a sealed field may be 2 MiB). */
const TEXT_CAP = 80;
const HUGE = 'A'.repeat(70_000);
/**
 * The longest query value sent. Node refuses a request line and headers past 16 KiB before any
 * route (431 HEADERS_TOO_LARGE, apps/gateway/src/errors/client-error.handler.ts, tested below);
 * a value twice over, the longest path and the rest stay under that so the routes are reached.
 */
const LONG_QUERY_VALUE = 5_000;
/** A JSON body past the gateway's body limit (BODY_LIMIT_BYTES, 1.1 MiB by default). */
const OVER_THE_LIMIT = `{"x":"${'A'.repeat(3 * 1024 * 1024)}"}`;

// ---------------------------------------------------------------------------------------------
// The operations, from the document

function resolve(schema: JsonSchema | undefined, doc: OpenApiDocument, depth = 0): JsonSchema {
  if (!schema || depth > 20) return {};
  if (typeof schema['$ref'] === 'string') {
    const name = schema['$ref'].split('/').pop() ?? '';
    return resolve(doc.components.schemas[name], doc, depth + 1);
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([k, v]) => [k, resolve(v, doc, depth + 1)]),
      );
    } else if ((key === 'items' || key === 'additionalProperties') && value && typeof value === 'object') {
      out[key] = resolve(value as JsonSchema, doc, depth + 1);
    } else if ((key === 'oneOf' || key === 'anyOf' || key === 'allOf') && Array.isArray(value)) {
      out[key] = value.map((v) => resolve(v as JsonSchema, doc, depth + 1));
    } else {
      out[key] = value;
    }
  }
  return out;
}

function authOf(op: Record<string, unknown>): Operation['auth'] {
  const security = JSON.stringify(op['security'] ?? []);
  if (security.includes('adminCookie')) return 'admin';
  if (security.includes('refreshCookie')) return 'refresh';
  if (security === '[{},{"bearer":[]}]') return 'optional';
  if (security.includes('bearer')) return 'bearer';
  return 'public';
}

function operationsOf(doc: OpenApiDocument): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!HTTP_METHODS.has(method)) continue;
      const params = ((op['parameters'] as Param[] | undefined) ?? []).map((p) => ({
        ...p,
        schema: resolve(p.schema, doc),
      }));
      const content = (op['requestBody'] as { content?: Record<string, { schema: JsonSchema }> } | undefined)
        ?.content;
      const [mediaType, media] = Object.entries(content ?? {})[0] ?? [];
      ops.push({
        method: method.toUpperCase(),
        path,
        key: `${method.toUpperCase()} ${path}`,
        tag: ((op['tags'] as string[] | undefined) ?? [''])[0] ?? '',
        auth: authOf(op),
        params,
        ...(mediaType && media ? { body: { mediaType, schema: resolve(media.schema, doc) } } : {}),
      });
    }
  }
  return ops;
}

// ---------------------------------------------------------------------------------------------
// Values from schemas

/** Strings a pattern describes, where fast-check can read the pattern; null where it cannot. */
function matching(pattern: string): fc.Arbitrary<string> | null {
  try {
    const arb = fc.stringMatching(new RegExp(pattern));
    fc.sample(arb, { numRuns: 1, seed: 1 });
    return arb;
  } catch {
    return null;
  }
}

/** A value the schema takes (as far as a generator can tell without the server's other rules). */
function validValue(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant(null);
  if ('const' in schema) return fc.constant(schema['const']);
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0)
    return fc.constantFrom(...(schema['enum'] as unknown[]));
  const alternatives = (schema['oneOf'] ?? schema['anyOf']) as JsonSchema[] | undefined;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => validValue(s, depth + 1)));
  const type = Array.isArray(schema['type'])
    ? (schema['type'] as string[]).find((t) => t !== 'null')
    : schema['type'];
  switch (type) {
    case 'object': {
      const properties = (schema['properties'] as Record<string, JsonSchema> | undefined) ?? {};
      const required = (schema['required'] as string[] | undefined) ?? [];
      if (Object.keys(properties).length === 0) return fc.constant({});
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, s] of Object.entries(properties)) record[name] = validValue(s, depth + 1);
      return fc.record(record, { requiredKeys: required.filter((r) => r in properties) });
    }
    case 'array': {
      const min = Number(schema['minItems'] ?? 0);
      const max = Math.max(min, Math.min(Number(schema['maxItems'] ?? 3), 3));
      return fc.array(validValue((schema['items'] as JsonSchema | undefined) ?? {}, depth + 1), {
        minLength: Math.min(min, max),
        maxLength: max,
      });
    }
    case 'string': {
      if (schema['format'] === 'date-time') {
        return fc
          .date({
            min: new Date('2020-01-01T00:00:00Z'),
            max: new Date('2030-01-01T00:00:00Z'),
            noInvalidDate: true,
          })
          .map((d) => d.toISOString());
      }
      const min = Number(schema['minLength'] ?? 0);
      const max = Math.max(min, Math.min(Number(schema['maxLength'] ?? TEXT_CAP), TEXT_CAP));
      if (typeof schema['pattern'] === 'string') {
        // `^[class]*$` with lengths: the class at exactly those lengths (hex keys, salts).
        const counted = /^\^(\[[^\]]+\])[*+]\$$/.exec(schema['pattern']);
        const arb = matching(counted ? `^${counted[1]}{${min},${max}}$` : schema['pattern']);
        if (arb) return arb;
      }
      return fc.string({ minLength: min, maxLength: max });
    }
    case 'integer':
    case 'number': {
      const clamp = (n: number) => Math.min(Math.max(n, -(2 ** 31)), 2 ** 31);
      const exclusive = schema['exclusiveMinimum'];
      const min = clamp(Number(schema['minimum'] ?? (exclusive !== undefined ? Number(exclusive) + 1 : 0)));
      return fc.integer({ min, max: Math.max(min, clamp(Number(schema['maximum'] ?? min + 1000))) });
    }
    case 'boolean':
      return fc.boolean();
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value of no particular kind: wrong types, empty and huge text, odd numbers, deep nesting. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString(120) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -0, 2 ** 53 + 1, '', [], {}),
  },
  { weight: 1, arbitrary: fc.constant(HUGE) },
  {
    weight: 1,
    arbitrary: fc
      .nat({ max: 40 })
      .map((n) => JSON.parse(`${'['.repeat(n + 20)}${']'.repeat(n + 20)}`) as unknown),
  },
);

/** A valid value with one change: a field replaced, dropped or added, or an array element replaced. */
function mutated(value: unknown): fc.Arbitrary<unknown> {
  if (typeof value === 'string') return fc.oneof(mutationOf(value), hostileValue);
  if (Array.isArray(value)) {
    if (value.length === 0) return fc.oneof(hostileValue, fc.array(hostileValue, { maxLength: 3 }));
    return fc
      .tuple(fc.nat({ max: value.length - 1 }), hostileValue)
      .map(([i, v]) => value.map((x, j) => (i === j ? v : x)));
  }
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    const record = value as Record<string, unknown>;
    const changes: fc.Arbitrary<unknown>[] = [
      fc
        .tuple(
          fc.oneof(hostileString(20), fc.constantFrom('__proto__', 'constructor', 'id', 'extra')),
          hostileValue,
        )
        .map(([k, v]) => ({ ...record, [k]: v })),
    ];
    if (keys.length > 0) {
      changes.push(
        fc
          .constantFrom(...keys)
          .chain((k) => fc.oneof(hostileValue, mutated(record[k])).map((v) => ({ ...record, [k]: v }))),
        fc
          .constantFrom(...keys)
          .map((k) => Object.fromEntries(Object.entries(record).filter(([key]) => key !== k))),
      );
    }
    return fc.oneof(...changes);
  }
  return hostileValue;
}

/** Anything for a JSON body: built from the schema, mutated from that, or not JSON at all. */
function jsonBody(
  schema: JsonSchema,
  excludeValid: ((body: unknown) => boolean) | null,
): fc.Arbitrary<Generated['body']> {
  const valid = validValue(schema);
  const asJson = (v: unknown) => ({ text: JSON.stringify(v) ?? 'null', contentType: 'application/json' });
  const options: fc.Arbitrary<Generated['body']>[] = [
    valid.chain((v) => mutated(v)).map(asJson),
    fc.jsonValue({ maxDepth: 3 }).map(asJson),
    fc
      .oneof(hostileString(200), fc.constantFrom('{', '{"a":', 'null', '[]', '""', '{"__proto__":{"x":1}}'))
      .map((text) => ({
        text,
        contentType: 'application/json',
      })),
    fc.constant(undefined),
    fc
      .tuple(valid, fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml'))
      .map(([v, contentType]) => ({ text: JSON.stringify(v) ?? '', contentType })),
    fc.constant({ text: OVER_THE_LIMIT, contentType: 'application/json' }),
  ];
  const weights = [5, 1, 1, 1, 1, 1];
  if (!excludeValid) {
    options.unshift(valid.map(asJson));
    weights.unshift(4);
  }
  const arb = fc.oneof(...options.map((arbitrary, i) => ({ weight: weights[i] ?? 1, arbitrary })));
  return excludeValid
    ? arb.filter((b) => b === undefined || !isJson(b.text) || !excludeValid(JSON.parse(String(b.text))))
    : arb;
}

function isJson(text: string | Buffer): boolean {
  try {
    JSON.parse(String(text));
    return true;
  } catch {
    return false;
  }
}

/** A multipart form: the schema's fields (as text) and a file, in any order, maybe cut short. */
function multipartBody(schema: JsonSchema): fc.Arbitrary<Generated['body']> {
  const properties = (schema['properties'] as Record<string, JsonSchema> | undefined) ?? {};
  const fieldNames = Object.keys(properties).filter((n) => n !== 'file');
  const fields = fc.record(Object.fromEntries(fieldNames.map((n) => [n, validValue(properties[n] ?? {})])), {
    requiredKeys: [],
  });
  return fc
    .record({
      boundary: fc.string({ unit: fc.constantFrom(...'abcXYZ0189-_'), minLength: 1, maxLength: 40 }),
      fields: fields.chain((f) => fc.oneof(fc.constant(f), mutated(f))),
      file: fc.uint8Array({ maxLength: 3000 }),
      fileFirst: fc.boolean(),
      cut: fc.option(fc.nat(), { nil: undefined }),
      wrongBoundary: fc.boolean(),
    })
    .map(({ boundary, fields: f, file, fileFirst, cut, wrongBoundary }) => {
      const entries =
        f && typeof f === 'object' && !Array.isArray(f) ? Object.entries(f) : [['fields', JSON.stringify(f)]];
      const parts = entries.map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${typeof value === 'string' ? value : JSON.stringify(value)}\r\n`,
      );
      const filePart = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        Buffer.from(file),
        Buffer.from('\r\n'),
      ]);
      const textParts = Buffer.from(parts.join(''));
      let body = Buffer.concat([
        fileFirst ? filePart : textParts,
        fileFirst ? textParts : filePart,
        Buffer.from(`--${boundary}--\r\n`),
      ]);
      if (cut !== undefined) body = body.subarray(0, cut % (body.length + 1));
      return {
        text: body,
        contentType: `multipart/form-data; boundary=${wrongBoundary ? 'other' : boundary}`,
      };
    });
}

/** Raw bytes for an octet-stream body (the blob route), with or without Content-Range. */
const octetBody = fc.uint8Array({ maxLength: 2000 }).map((bytes) => ({
  text: Buffer.from(bytes),
  contentType: 'application/octet-stream',
}));

function paramValue(param: Param): fc.Arbitrary<string> {
  const valid = validValue(param.schema).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  if (param.in === 'path') {
    return fc.oneof(
      { weight: 4, arbitrary: valid.map(encodeURIComponent) },
      { weight: 2, arbitrary: hostileString(40).map(encodeURIComponent) },
      {
        weight: 1,
        arbitrary: fc.constantFrom('%zz', '%00', '..', '%2e%2e%2f', 'a'.repeat(3000), '%E0%A4%A', '%C0%80'),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(fc.uuid({ version: 4 }), fc.uuid({ version: 4 })).map(([a, b]) => `${a}/${b}`),
      },
    );
  }
  if (param.in === 'header') {
    return fc.oneof(
      valid,
      fc.tuple(fc.integer(), fc.integer(), fc.integer()).map(([a, b, c]) => `bytes ${a}-${b}/${c}`),
      fc.constant('bytes 0-99/1000').chain((v) => mutationOf(v)),
      hostileString(60),
    );
  }
  return fc.oneof(
    { weight: 4, arbitrary: valid },
    { weight: 2, arbitrary: hostileString(80) },
    { weight: 1, arbitrary: fc.constant(HUGE.slice(0, LONG_QUERY_VALUE)) },
  );
}

function requestArb(
  op: Operation,
  identities: Generated['identity'][],
  excludeValid: ((b: unknown) => boolean) | null,
): fc.Arbitrary<Generated> {
  const path = op.params.filter((p) => p.in === 'path');
  const query = op.params.filter((p) => p.in === 'query');
  const headers = op.params.filter((p) => p.in === 'header');
  const queryArb = fc
    .tuple(
      ...query.map((p) =>
        fc.oneof(
          fc.constant<Array<[string, string]>>([]),
          paramValue(p).map((v): Array<[string, string]> => [[p.name, v]]),
          // The same key twice: a query parser may hand the schema an array.
          fc.tuple(paramValue(p), paramValue(p)).map(([a, b]): Array<[string, string]> => [
            [p.name, a],
            [p.name, b],
          ]),
        ),
      ),
      fc.option(fc.tuple(hostileString(12), hostileString(30)), { nil: undefined }),
    )
    .map((parts) => {
      // Never change a generated value in place: fast-check shrinks from it.
      const extra = parts[parts.length - 1] as [string, string] | undefined;
      const pairs = (parts.slice(0, -1) as Array<Array<[string, string]>>).flat();
      return extra ? [...pairs, extra] : pairs;
    });
  const body =
    op.method === 'GET' || op.method === 'HEAD'
      ? fc.constant(undefined)
      : !op.body
        ? fc.oneof(
            fc.constant(undefined),
            fc.constant(undefined),
            hostileValue.map((v) => ({ text: JSON.stringify(v) ?? '', contentType: 'application/json' })),
          )
        : op.body.mediaType === 'multipart/form-data'
          ? multipartBody(op.body.schema)
          : op.body.mediaType === 'application/json'
            ? jsonBody(op.body.schema, excludeValid)
            : octetBody;
  return fc.record({
    identity: fc.constantFrom(...identities),
    pathValues: fc.record(Object.fromEntries(path.map((p) => [p.name, paramValue(p)]))) as fc.Arbitrary<
      Record<string, string>
    >,
    query: queryArb,
    headers: fc.record(Object.fromEntries(headers.map((p) => [p.name, paramValue(p)])), {
      requiredKeys: [],
    }) as fc.Arbitrary<Record<string, string>>,
    body,
  });
}

// ---------------------------------------------------------------------------------------------
// Sending and judging

interface Credentials {
  main: TestAccount;
  throwaway: TestAccount;
  adminCookie: string;
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** Header values Node's fetch sends (it refuses CR, LF, NUL and characters past Latin-1). */
const sendable = (value: string) => !/[^\t\x20-\x7e\x80-\xff]/.test(value);

async function send(op: Operation, g: Generated, creds: Credentials, forged: string): Promise<Answer> {
  let path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => g.pathValues[name] ?? '');
  const search = new URLSearchParams(g.query).toString();
  if (search) path += `?${search}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const [name, value] of Object.entries(g.headers))
    if (sendable(value)) headers[name.toLowerCase()] = value;
  const account = op.path.startsWith('/api/auth/') && op.method !== 'GET' ? creds.throwaway : creds.main;
  if (g.identity === 'signed-in') {
    if (op.auth === 'admin') headers['cookie'] = creds.adminCookie;
    else if (op.auth === 'bearer' && account.client.access)
      headers['authorization'] = `Bearer ${account.client.access}`;
  } else if (g.identity === 'forged' && sendable(forged)) {
    if (op.auth === 'admin') headers['cookie'] = `${ADMIN_COOKIE.name}=${forged}`;
    else if (op.auth === 'refresh') headers['cookie'] = `${REFRESH_COOKIE.name}=${forged}`;
    else headers['authorization'] = `Bearer ${forged}`;
  }
  const init: RequestInit = {
    method: op.method,
    headers,
    redirect: 'manual',
    signal: AbortSignal.timeout(20_000),
  };
  if (g.body !== undefined) {
    if (g.body.contentType) headers['content-type'] = g.body.contentType;
    init.body = typeof g.body.text === 'string' ? g.body.text : new Uint8Array(g.body.text);
  }
  // A body past the limit is answered 413 before it is read; the gateway still reads the rest for a
  // moment, so the answer reaches a client that is still sending (body-limit.e2e-spec.ts).
  const res = await fetch(new URL(path, e2eEnv().baseUrl), init);
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
}

const API_CODES = new Set<string>(Object.values(ErrorCode));

/** Why an answer breaks the rules, or null. */
function problemOf(method: string, answer: Answer): string | null {
  if (answer.status >= 500) return `answered ${answer.status}`;
  if (STACK_RE.test(answer.text)) return 'a stack trace or a source path in the answer';
  if (answer.status < 400 || method === 'HEAD') return null;
  if (!answer.contentType.includes('application/json'))
    return `a ${answer.status} that is not JSON (${answer.contentType})`;
  let body: { code?: unknown; error?: unknown };
  try {
    body = JSON.parse(answer.text) as typeof body;
  } catch {
    return `a ${answer.status} whose body is not JSON`;
  }
  if (typeof body.code !== 'string' || !/^[A-Z][A-Z0-9_]+$/.test(body.code))
    return `a ${answer.status} without an error code`;
  // One of the API's codes (libs/contracts errors.ts), never a framework's own (Fastify's FST_ERR_*).
  if (!API_CODES.has(body.code)) return `a ${answer.status} with a code that is not the API's: ${body.code}`;
  if (typeof body.error !== 'string' || body.error.length === 0)
    return `a ${answer.status} without a message`;
  return null;
}

describe('every contract schema against every route (fuzz)', () => {
  const { logDir } = e2eEnv();
  let operations: Operation[] = [];
  let creds: Credentials;
  let logsBefore = new Map<string, number>();
  const only = process.env['FUZZ_ROUTE']?.trim();
  const signedIn = fuzzSettings(6, 240_000);
  const without = fuzzSettings(2);

  beforeAll(async () => {
    if (!logDir) throw new Error('VAULT_E2E_LOG_DIR is not set: run the suite with node scripts/e2e.mjs');
    await settleLogs(logDir);
    logsBefore = new Map(readLogs(logDir).map((f) => [f.name, f.content.length]));
    const res = await fetch(new URL('/api/docs/openapi.json', e2eEnv().baseUrl));
    operations = operationsOf((await res.json()) as OpenApiDocument);
    const [main, throwaway, admin] = await Promise.all([signUp(), signUp(), createAdmin('super_admin')]);
    creds = { main, throwaway, adminCookie: (await adminSignIn(admin, 'fuzz')).cookie };
  }, 120_000);

  it(
    signedIn.title(
      `answers every generated request without a 5xx, every 4xx with a code (and ${without.numRuns} runs per operation without credentials)`,
    ),
    async () => {
      const ajv = new Ajv2020({ strict: false, allErrors: false });
      addFormats(ajv);
      const chosen = only ? operations.filter((op) => op.key === only) : operations;
      expect(chosen.length).toBeGreaterThan(only ? 0 : 80);
      const failures: string[] = [];
      const statuses = new Map<string, number>();
      let sent = 0;
      const forgedToken = fc.oneof(mutationOf(FORGED_BASE), hostileString(60));
      const spent = new Map<string, number>();
      for (const op of chosen) {
        const started = Date.now();
        const excludeValid = ONLY_INVALID_BODIES.has(op.key) && op.body ? ajv.compile(op.body.schema) : null;
        const passes: Array<[Generated['identity'][], FuzzSettings]> = [
          [op.auth === 'public' || NOT_SIGNED_IN.has(op.key) ? ['none'] : ['signed-in'], signedIn],
          [['none', 'forged'], without],
        ];
        for (const [identities, settings] of passes) {
          try {
            await fuzz(
              fc.asyncProperty(requestArb(op, identities, excludeValid), forgedToken, async (g, forged) => {
                const answer = await send(op, g, creds, forged);
                sent += 1;
                const status = String(answer.status);
                statuses.set(status, (statuses.get(status) ?? 0) + 1);
                const problem = problemOf(op.method, answer);
                if (problem) throw new Error(`${op.key}: ${problem}: ${answer.text.slice(0, 300)}`);
              }),
              settings,
            );
          } catch (error) {
            failures.push(
              `${op.key} (${identities.join('/')}): ${(error as Error).message}\n  with FUZZ_ROUTE='${op.key}'`,
            );
          }
        }
        spent.set(op.key, Date.now() - started);
      }
      console.log(
        `fuzz-routes: ${chosen.length} operations, ${sent} requests, seed ${signedIn.seed}, ` +
          `${signedIn.numRuns} runs signed in and ${without.numRuns} without per operation; statuses ` +
          JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0].localeCompare(b[0])))) +
          '; slowest (ms) ' +
          JSON.stringify(Object.fromEntries([...spent].sort((a, b) => b[1] - a[1]).slice(0, 6))),
      );
      expect(failures).toEqual([]);
    },
    signedIn.timeoutMs,
  );

  describe('regressions found by fuzzing', () => {
    it("a request whose headers pass 16 KiB is a 431 in the API's error shape (Fastify's own body had no code)", async () => {
      const res = await fetch(new URL('/api/auth/me', e2eEnv().baseUrl), {
        headers: { 'x-long': 'a'.repeat(20_000) },
      });
      expect({ status: res.status, body: (await res.json()) as unknown }).toEqual({
        status: 431,
        body: { code: 'HEADERS_TOO_LARGE', error: 'Request headers too large' },
      });
    });

    it("a path segment past 100 characters is the API's 404 (Fastify's router answered 414 FST_ERR_MAX_PARAM_LENGTH)", async () => {
      const long = 'a'.repeat(120);
      const res = await fetch(new URL(`/api/notes/${long}`, e2eEnv().baseUrl), {
        method: 'DELETE',
        headers: { authorization: `Bearer ${creds.main.client.access ?? ''}` },
      });
      const text = await res.text();
      expect({ status: res.status, body: JSON.parse(text) as unknown }).toEqual({
        status: 404,
        body: { error: 'Not found', code: 'NOT_FOUND', requestId: res.headers.get('x-request-id') },
      });
      expect(text).not.toContain(long);
    });

    it("a path that is not valid percent-encoding is the API's 400 (Fastify's router answered FST_ERR_BAD_URL)", async () => {
      const res = await fetch(new URL('/api/notes/%E0%A4%A', e2eEnv().baseUrl));
      expect({ status: res.status, body: (await res.json()) as unknown }).toEqual({
        status: 400,
        body: {
          error: 'Malformed URL',
          code: 'VALIDATION_FAILED',
          requestId: res.headers.get('x-request-id'),
        },
      });
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('GET /api/auth/security-events with a cursor in the year 0 is a 400 (PostgreSQL refused it: a 500)', async () => {
      // base64url of '0000-01-01T00:00:00.000000Z|00000000-0000-4000-8000-000000000000'.
      const cursor = 'MDAwMC0wMS0wMVQwMDowMDowMC4wMDAwMDBafDAwMDAwMDAwLTAwMDAtNDAwMC04MDAwLTAwMDAwMDAwMDAwMA';
      const res = await fetch(new URL(`/api/auth/security-events?cursor=${cursor}`, e2eEnv().baseUrl), {
        headers: { authorization: `Bearer ${creds.main.client.access ?? ''}` },
      });
      expect({ status: res.status, body: (await res.json()) as unknown }).toEqual({
        status: 400,
        body: expect.objectContaining({ code: 'VALIDATION_FAILED', error: 'Invalid cursor' }) as unknown,
      });
    });

    it("POST /api/files/cloudinary/upload whose body ends inside the file is a 400 (busboy's own error: a 500)", async () => {
      const boundary = 'fuzz-regression';
      const field = (name: string, value: string) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      const hex = (bytes: number) => 'ab'.repeat(bytes);
      const body =
        field('fileId', randomUUID()) +
        field('size', '10') +
        field('encryptedSize', '26') +
        field('chunkSize', '65536') +
        field('iv', hex(12)) +
        field('wrappedKey', `${hex(48)}:${hex(12)}`) +
        field('encryptedName', `${hex(20)}:${hex(12)}`) +
        field('encryptedMimeType', `${hex(20)}:${hex(12)}`) +
        field('encryptedTags', `${hex(20)}:${hex(12)}`) +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n0123456789';
      const res = await fetch(new URL('/api/files/cloudinary/upload', e2eEnv().baseUrl), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${creds.main.client.access ?? ''}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        body,
      });
      expect({ status: res.status, body: (await res.json()) as unknown }).toEqual({
        status: 400,
        body: expect.objectContaining({
          code: 'VALIDATION_FAILED',
          error: 'Malformed multipart body',
        }) as unknown,
      });
    });
  });

  it('left the fuzzing account and the admin signed in (the exclusions hold)', async () => {
    const me = await fetch(new URL('/api/auth/me', e2eEnv().baseUrl), {
      headers: { authorization: `Bearer ${creds.main.client.access ?? ''}` },
    });
    expect(me.status).toBe(200);
    const session = await fetch(new URL('/api/admin/session', e2eEnv().baseUrl), {
      headers: { cookie: creds.adminCookie },
    });
    expect(session.status).toBe(200);
  });

  it('logged no stack trace and no unexpected error meanwhile', async () => {
    await settleLogs(logDir as string);
    const hits = readLogs(logDir as string).flatMap((file) =>
      file.content
        .slice(logsBefore.get(file.name) ?? 0)
        .split('\n')
        .filter((line) => /\\n\s+at |"code":"INTERNAL"|"statusCode":5\d\d|unhandled error/.test(line))
        .map((line) => `${file.name}: ${line.slice(0, 400)}`),
    );
    expect(hits).toEqual([]);
  });
});
