import { applyDecorators, Delete, Get, Head, HttpCode, Post, Put, SetMetadata } from '@nestjs/common';
import type { ErrorCode } from '@vault/contracts';
import type { z } from 'zod';
import { OptionalAuth, Public } from '../auth/auth.decorators';
import { RateLimit, type RateLimitBucket } from '../security/rate-limit.decorator';

/**
 * What a route tells the OpenAPI document beyond what Nest already knows (docs/architecture.md
 * "API document"). Method, path, protection, rate limit and tag are read from the route's own
 * decorators; the body, path and query schemas from the `zodPipe` that validates them. So a route
 * only states its summary, its answers and its error codes here.
 */
export const API_DOC = 'vault:api-doc';

export interface ApiAnswer {
  /** Defaults to the status the route answers with (`status`, else Nest's 201 for POST, 200). */
  status?: number;
  description: string;
  /** A named contract schema (several: one of them). */
  schema?: z.ZodType | z.ZodType[];
  /** The answer is the stored (encrypted) bytes, not JSON. */
  binary?: boolean;
  /** Sets or clears the refresh cookie, or (`admin-*`) the admin console's cookie. */
  cookie?: 'set' | 'clear' | 'admin-set' | 'admin-clear';
}

/** A body that is not JSON: a component written as JSON Schema, sent as `mediaType`. */
export interface RawBody {
  component: string;
  mediaType: 'multipart/form-data' | 'application/octet-stream';
  schema: () => Record<string, unknown>;
}

/** A route's description (its operationId is the handler's name). */
export interface ApiDoc {
  summary: string;
  success: ApiAnswer[];
  /**
   * The route's own error codes. VALIDATION_FAILED (a checked body, path or query), UNAUTHENTICATED
   * and SESSION_REVOKED (a protected route), NOT_FOUND (a checked path id), 413, 429, 503 and 500
   * are added where they apply.
   */
  errors?: ErrorCode[];
  /** Only where no `zodPipe` on `@Body` shows it (a raw, multipart or byte body). */
  body?: z.ZodType | RawBody;
  /** Only where no `zodPipe` on `@Param` / `@Query` shows them (documentation-only schemas). */
  params?: z.ZodType;
  query?: z.ZodType;
  /** Request headers that change what the route does (all optional). */
  headers?: Array<{ name: string; description: string }>;
  /** The route's credential is the refresh cookie (it is public for the bearer guard). */
  refreshCookie?: true;
}

export interface RouteOptions extends ApiDoc {
  /** The success status (`@HttpCode`); without it Nest answers 201 to POST and 200 otherwise. */
  status?: number;
  /** Protected by default (bearer token and live session); `public` or `optional` say otherwise. */
  auth?: 'public' | 'optional';
  /** The rate-limit bucket when not the controller's (or the default `api`). */
  limit?: RateLimitBucket;
}

/** A signed-out credential call (sign-in, recovery): public, on the `auth` limit, answering 200. */
export const SIGNED_OUT_CALL = {
  status: 200,
  auth: 'public',
  limit: 'auth',
} as const satisfies Partial<RouteOptions>;

const VERBS = { get: Get, post: Post, put: Put, delete: Delete, head: Head };

/**
 * One decorator per route: the HTTP method and path, the success status, protection, rate limit
 * and the route's OpenAPI description together, e.g.
 * `@Route('post', 'prelogin', { status: 200, auth: 'public', limit: 'auth', summary, success })`.
 */
export function Route(
  verb: keyof typeof VERBS,
  path: string | undefined,
  options: RouteOptions,
): MethodDecorator {
  const { status, auth, limit, ...doc } = options;
  return applyDecorators(
    VERBS[verb](path),
    ...(status === undefined ? [] : [HttpCode(status)]),
    ...(auth === 'public' ? [Public()] : auth === 'optional' ? [OptionalAuth()] : []),
    ...(limit === undefined ? [] : [RateLimit(limit)]),
    SetMetadata(API_DOC, doc),
  );
}
