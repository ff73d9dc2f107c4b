import {
  ADMIN_MESSAGES,
  adminSessionKeySchema,
  ErrorCode,
  meetsAdminRequirement,
  parseFirst,
  ROLES,
  RPC,
  UUID_V4_RE,
  VaultError,
  type AdminRequirement,
  type RpcAdmin,
  type RpcAuth,
  type RpcBodyPattern,
  type RpcContext,
  type RpcRequestBody,
} from '@vault/contracts';
import type Redis from 'ioredis';
import { z } from 'zod';
import { redisKeys } from '../redis/redis';

/**
 * Every service handler re-validates what the gateway sends (defence in depth): the caller's
 * context and the body, with the same contract schemas the gateway used.
 */
const rpcContextSchema = z.object({
  requestId: z.string().max(200).catch(''),
  ip: z.string().max(200).catch(''),
  userAgent: z.string().max(4096).catch(''),
  auth: z
    .object({
      userId: z.string().regex(UUID_V4_RE),
      sessionId: z.string().regex(UUID_V4_RE),
      role: z.enum(ROLES),
    })
    .optional(),
  // The admin service's calls: who, as the gateway's admin guard read it from the database. Role
  // and permissions are only the gateway's view: readAdmin takes them from the session instead.
  admin: z
    .object({
      id: z.string().regex(UUID_V4_RE),
      label: z.string().max(200),
      role: z.enum(ROLES),
      permissions: z.array(z.string().max(64)).max(64),
      sessionKey: adminSessionKeySchema,
    })
    .optional(),
});

export function readContext(payload: unknown): RpcContext {
  const ctx = (payload as { ctx?: unknown } | null)?.ctx;
  const parsed = rpcContextSchema.safeParse(ctx ?? {});
  if (!parsed.success) throw new VaultError(ErrorCode.UNAUTHENTICATED);
  return parsed.data;
}

/** The caller's identity; its absence is a 401. */
export function readAuth(ctx: RpcContext): RpcAuth {
  if (!ctx.auth) throw new VaultError(ErrorCode.UNAUTHENTICATED);
  return ctx.auth;
}

/** What an admin call may require: a permission (super_admin holds all), or the super_admin role. */
export type AdminCallRequirement = Exclude<AdminRequirement, 'session'>;

const storedRole = z.enum(ROLES);
const storedPermissions = z.array(z.string().max(64)).max(64);

/** A stored permissions field (JSON array), or null when it is missing or malformed. */
function parsePermissions(value: string | null): string[] | null {
  if (value === null) return null;
  try {
    const parsed = storedPermissions.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The admin behind an admin call, who must meet `requirement`. The context only names the admin
 * and its console session: that session (auth's `admin-sess:{sessionKey}` hash, one HMGET) must
 * exist and belong to that admin, and the role and permissions are the ones auth stored there at
 * its last check, never the message's, so a forged context needs a live session of that very
 * admin and gains nothing beyond its rights. No admin is ADMIN_REQUIRED, no such session
 * UNAUTHENTICATED, an unmet requirement PERMISSION_DENIED.
 */
export async function readAdmin(
  redis: Pick<Redis, 'hmget'>,
  payload: unknown,
  requirement: AdminCallRequirement,
  onRedisError?: (error: unknown) => void,
): Promise<RpcAdmin> {
  const claimed = readContext(payload).admin;
  if (!claimed) throw new VaultError(ErrorCode.ADMIN_REQUIRED);
  let stored: (string | null)[];
  try {
    stored = await redis.hmget(redisKeys.adminSession(claimed.sessionKey), 'userId', 'role', 'permissions');
  } catch (error) {
    onRedisError?.(error);
    throw new VaultError(ErrorCode.SERVICE_UNAVAILABLE);
  }
  const [userId, roleValue, permissionsValue] = stored;
  const role = storedRole.safeParse(roleValue);
  const permissions = parsePermissions(permissionsValue ?? null);
  if (userId !== claimed.id || !role.success || !permissions) {
    throw new VaultError(ErrorCode.UNAUTHENTICATED);
  }
  const admin: RpcAdmin = { ...claimed, role: role.data, permissions };
  if (!meetsAdminRequirement(admin, requirement)) {
    const message = requirement === 'super_admin' ? ADMIN_MESSAGES.superAdminOnly : undefined;
    throw new VaultError(ErrorCode.PERMISSION_DENIED, message);
  }
  return admin;
}

/**
 * The body, parsed by its contract schema: the first failing rule's message on a 400, or the
 * given code (e.g. INVALID_CREDENTIALS, so a malformed key reads like a wrong one).
 */
export function readBody<S extends z.ZodType>(
  schema: S,
  payload: unknown,
  onInvalid?: ErrorCode,
): z.output<S> {
  const body = (payload as { body?: unknown } | null)?.body;
  const result = parseFirst(schema, body ?? {});
  if (!result.ok) {
    throw onInvalid ? new VaultError(onInvalid) : new VaultError(ErrorCode.VALIDATION_FAILED, result.message);
  }
  return result.data;
}

/**
 * Re-checks that the caller's session (auth's `sess:{sid}` hash) still exists and belongs to the
 * user the context names, so a forged context needs a live session id of that very user. The
 * gateway has checked the token already; services that own user data check again.
 */
export async function assertLiveCaller(
  redis: Pick<Redis, 'hget'>,
  auth: RpcAuth | undefined,
  onRedisError?: (error: unknown) => void,
): Promise<RpcAuth> {
  if (!auth) throw new VaultError(ErrorCode.UNAUTHENTICATED);
  let owner: string | null;
  try {
    owner = await redis.hget(redisKeys.session(auth.sessionId), 'userId');
  } catch (error) {
    onRedisError?.(error);
    throw new VaultError(ErrorCode.SERVICE_UNAVAILABLE);
  }
  if (owner !== auth.userId) throw new VaultError(ErrorCode.SESSION_REVOKED);
  return auth;
}

/** readBody with the request schema of the pattern's entry in the contracts' RPC map. */
export function readRpcBody<P extends RpcBodyPattern>(
  pattern: P,
  payload: unknown,
  onInvalid?: ErrorCode,
): RpcRequestBody<P> {
  const schema: z.ZodType = RPC[pattern].request;
  return readBody(schema, payload, onInvalid) as RpcRequestBody<P>;
}

/** Who checks an admin call: server-kit's CallerService (readAdmin with the service's Redis). */
export interface AdminCallChecker {
  admin(payload: unknown, requirement: AdminCallRequirement): Promise<RpcAdmin>;
}

/**
 * The body of an owner-counts question (`notes.admin.counts`, `files.admin.counts`) and its
 * permission check: one owner's counts need users:read, everyone's stats:read.
 */
export async function readOwnerCountsRequest(
  caller: AdminCallChecker,
  pattern: 'notes.admin.counts' | 'files.admin.counts',
  payload: unknown,
): Promise<RpcRequestBody<typeof pattern>> {
  const body = readRpcBody(pattern, payload);
  await caller.admin(payload, body.ownerId ? 'users:read' : 'stats:read');
  return body;
}
