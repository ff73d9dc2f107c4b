import type { Type } from '@nestjs/common';
import { ADMIN_COOKIE, ERROR_INFO, ErrorCode, REFRESH_COOKIE } from '@vault/contracts';
import type { z } from 'zod';
import { GATEWAY_CONTROLLERS } from '../routes/controllers';
import type { ApiAnswer, ApiDoc, RawBody } from './api-doc';
import { BINARY_SCHEMA, Components, jsonSchema, ref, type JsonSchema } from './components';
import { mappedRoutes, type MappedRoute } from './mapped-routes';

/**
 * The OpenAPI 3.1 document, generated from the gateway's own routes (docs/architecture.md
 * "API document"): method, path, protection, rate limit and tag from the controllers' Nest
 * metadata, request schemas from their `zodPipe`s, summaries, answers and error codes from
 * `@Route`. Request bodies use the schemas' input side, answers their output side.
 */

const E = ErrorCode;

/** A route with its description: the route's own `@Route` options, its validated arguments. */
interface DocumentedRoute extends MappedRoute {
  doc: ApiDoc;
  body: z.ZodType | RawBody | undefined;
  params: z.ZodType | undefined;
  query: z.ZodType | undefined;
}

function documented(route: MappedRoute): DocumentedRoute | undefined {
  const { doc, args } = route;
  if (!doc) return undefined;
  return {
    ...route,
    doc,
    body: doc.body ?? args.body ?? undefined,
    params: doc.params ?? args.params ?? undefined,
    query: doc.query ?? args.query ?? undefined,
  };
}

const RETRY_AFTER_HEADER = {
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } },
};

/**
 * What AdminGuard answers on an admin route (docs/api.md "Admin sign-in"): no or an ended session,
 * an account that is no longer an admin or lost its 2FA, a missing permission, and a cross-origin
 * state change.
 */
function adminErrors(route: DocumentedRoute): ErrorCode[] {
  return [
    E.UNAUTHENTICATED,
    E.ADMIN_REQUIRED,
    E.ADMIN_2FA_REQUIRED,
    ...(route.adminRequirement === 'session' ? [] : [E.PERMISSION_DENIED]),
    ...(route.method === 'get' || route.method === 'head' ? [] : [E.FORBIDDEN]),
  ];
}

function errorResponses(route: DocumentedRoute): Record<string, unknown> {
  // What every route of its kind may answer comes first: a checked argument may fail validation,
  // a protected route may find no token or an ended session, and a row named by a checked path id
  // may not be the caller's (docs/api.md "401, 403 and 404").
  const codes = new Set<ErrorCode>([
    ...(route.body || route.params || route.query ? [E.VALIDATION_FAILED] : []),
    ...(route.auth === 'required' ? [E.UNAUTHENTICATED, E.SESSION_REVOKED] : []),
    ...(route.auth === 'admin' ? adminErrors(route) : []),
    ...(route.args.params ? [E.NOT_FOUND] : []),
    ...(route.doc.errors ?? []),
  ]);
  if (route.body) codes.add(E.PAYLOAD_TOO_LARGE);
  if (route.rateLimit !== 'none') codes.add(E.RATE_LIMITED);
  if (route.tag !== 'health') codes.add(E.SERVICE_UNAVAILABLE);
  codes.add(E.INTERNAL);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_INFO[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus.entries()].sort((a, b) => a[0] - b[0])) {
    const description = list.map((c) => `${c}: ${ERROR_INFO[c].message}`).join(' | ');
    out[String(status)] = {
      description,
      ...(status === 423 || status === 429 ? { headers: RETRY_AFTER_HEADER } : {}),
      content: { 'application/json': { schema: ref('ErrorBody') } },
    };
  }
  return out;
}

const COOKIE_HEADERS = {
  set: `${REFRESH_COOKIE.name}=<refresh token>; HttpOnly; SameSite=Strict; Path=${REFRESH_COOKIE.path}; Max-Age=<grant>; Secure outside localhost`,
  clear: `${REFRESH_COOKIE.name}=; Path=${REFRESH_COOKIE.path}; Expires in the past`,
  'admin-set': `${ADMIN_COOKIE.name}=<admin session token>; HttpOnly; SameSite=Strict; Path=${ADMIN_COOKIE.path}; Max-Age=<to the absolute end>; Secure outside localhost`,
  'admin-clear': `${ADMIN_COOKIE.name}=; Path=${ADMIN_COOKIE.path}; Expires in the past`,
};

function answerHeaders(answer: ApiAnswer, status: number): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  if (answer.cookie) {
    headers['Set-Cookie'] = { description: COOKIE_HEADERS[answer.cookie], schema: { type: 'string' } };
  }
  if (answer.binary) {
    headers['Content-Length'] = { description: 'Bytes of this answer', schema: { type: 'integer' } };
    headers['Accept-Ranges'] = { description: 'bytes', schema: { type: 'string' } };
    if (status === 206) {
      headers['Content-Range'] = { description: 'bytes <first>-<last>/<size>', schema: { type: 'string' } };
    }
  }
  return headers;
}

function answerContent(answer: ApiAnswer, components: Components): Record<string, unknown> | undefined {
  if (answer.binary) return { 'application/octet-stream': { schema: BINARY_SCHEMA } };
  const { schema } = answer;
  if (!schema) return undefined;
  const json = Array.isArray(schema)
    ? { oneOf: schema.map((s) => components.schema(s, 'output')) }
    : components.schema(schema, 'output');
  return { 'application/json': { schema: json } };
}

function successResponses(route: DocumentedRoute, components: Components): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const answer of route.doc.success) {
    const status = answer.status ?? route.status;
    const headers = answerHeaders(answer, status);
    const content = answerContent(answer, components);
    out[String(status)] = {
      description: answer.description,
      ...(Object.keys(headers).length ? { headers } : {}),
      ...(content ? { content } : {}),
    };
  }
  return out;
}

function schemaParameters(schema: z.ZodType | undefined, where: 'path' | 'query'): unknown[] {
  if (!schema) return [];
  const json = jsonSchema(schema, 'input');
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(json.properties as Record<string, JsonSchema>).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: s,
  }));
}

function parameters(route: DocumentedRoute): unknown[] {
  const headers = (route.doc.headers ?? []).map(({ name, description }) => ({
    name,
    in: 'header',
    required: false,
    description,
    schema: { type: 'string' },
  }));
  return [...schemaParameters(route.params, 'path'), ...schemaParameters(route.query, 'query'), ...headers];
}

function security(route: DocumentedRoute): unknown[] {
  if (route.doc.refreshCookie) return [{ refreshCookie: [] }];
  switch (route.auth) {
    case 'required':
      return [{ bearer: [] }];
    case 'optional':
      return [{}, { bearer: [] }];
    case 'admin':
      return [{ adminCookie: [] }];
    default:
      return [];
  }
}

function requestBody(route: DocumentedRoute, components: Components): Record<string, unknown> | undefined {
  const { body } = route;
  if (!body) return undefined;
  const [mediaType, schema] =
    'component' in body
      ? [body.mediaType, components.raw(body)]
      : ['application/json', components.schema(body, 'input')];
  return { required: true, content: { [mediaType]: { schema } } };
}

function operation(route: DocumentedRoute, components: Components): Record<string, unknown> {
  const params = parameters(route);
  const body = requestBody(route, components);
  return {
    operationId: route.operationId,
    summary: route.doc.summary,
    tags: [route.tag],
    security: security(route),
    // The rate-limit bucket the route counts against (docs/api.md "Rate limits"); 429 when over it.
    'x-rate-limit': route.rateLimit,
    // What an admin route needs beyond a live admin session (docs/api.md "Admin").
    ...(route.adminRequirement ? { 'x-admin-requirement': route.adminRequirement } : {}),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: { ...successResponses(route, components), ...errorResponses(route) },
  };
}

export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  servers: Array<{ url: string }>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> };
}

/** Every route of these controllers that has a `@Route` description (all of them: a test holds it). */
export function buildOpenApiDocument(
  version = '0.1.0',
  controllers: Type[] = GATEWAY_CONTROLLERS,
): OpenApiDocument {
  const components = new Components();
  const paths: OpenApiDocument['paths'] = {};
  for (const route of mappedRoutes(controllers).map(documented)) {
    if (route) paths[route.path] = { ...paths[route.path], [route.method]: operation(route, components) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Vault API',
      version,
      description:
        'End-to-end encrypted vault. JSON in and out. Errors: `{error, code, ...extra, requestId}`; ' +
        'validation failures answer 400 with the first failing rule. Every answer carries `x-request-id`.',
    },
    servers: [{ url: '/' }],
    tags: [
      { name: 'auth', description: 'Accounts, sign-in, sessions (docs/api.md "Routes")' },
      {
        name: 'notes',
        description:
          'Notes sealed on the client (docs/api.md "Notes"): every text field is ' +
          '`hex(ciphertext||tag):hex(iv)`; the server never sees a title, a content or a tag',
      },
      {
        name: 'files',
        description:
          'Files sealed on the client (docs/api.md "Files"): names, types and tags are sealed ' +
          'like notes, the bytes are encrypted in 64 KiB chunks and go to storage by signed URL; the server ' +
          'never sees a plaintext byte or name',
      },
      { name: 'health', description: 'Probes' },
      {
        name: 'admin',
        description:
          'The admin console (docs/api.md "Admin"): the HttpOnly admin cookie, never a bearer token; ' +
          'role and permissions are read from the database on every call; counts and sizes only',
      },
    ],
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT (EdDSA)' },
        refreshCookie: { type: 'apiKey', in: 'cookie', name: REFRESH_COOKIE.name },
        adminCookie: { type: 'apiKey', in: 'cookie', name: ADMIN_COOKIE.name },
      },
    },
  };
}
