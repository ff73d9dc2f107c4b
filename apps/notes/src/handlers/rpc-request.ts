import { ErrorCode, parseFirst, ROLES, UUID_V4_RE, VaultError, type RpcContext } from '@vault/contracts';
import { z } from 'zod';

/**
 * Every handler re-validates what the gateway sends (defence in depth): the caller's context
 * and the body, with the same contract schemas the gateway used. (The same shape as auth's
 * handlers/rpc-request.ts; services never import each other.)
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
});

export function readContext(payload: unknown): RpcContext {
  const ctx = (payload as { ctx?: unknown } | null)?.ctx;
  const parsed = rpcContextSchema.safeParse(ctx ?? {});
  if (!parsed.success) throw new VaultError(ErrorCode.UNAUTHENTICATED);
  return parsed.data;
}

/** The body, parsed by its contract schema; the first failing rule's message on a 400. */
export function readBody<S extends z.ZodType>(schema: S, payload: unknown): z.output<S> {
  const body = (payload as { body?: unknown } | null)?.body;
  const result = parseFirst(schema, body ?? {});
  if (!result.ok) throw new VaultError(ErrorCode.VALIDATION_FAILED, result.message);
  return result.data;
}
