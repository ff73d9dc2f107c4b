import type { RpcAdmin, RpcContext } from '@vault/contracts';
import { readContext, type AdminCallChecker, type AdminCallRequirement } from '@vault/server-kit';

/** An admin call's context (forwarded to auth, notes and files) and its admin. */
export interface AdminCaller {
  ctx: RpcContext;
  admin: RpcAdmin;
}

/**
 * The admin behind a call, who must meet `requirement`: a permission (hasPermission: super_admin
 * holds all), or `super_admin` itself (roles and permissions). The gateway has checked it already;
 * this is the service's own check (defence in depth) against the admin's live console session,
 * whose stored role and permissions replace the message's (server-kit readAdmin). The peers
 * called with `ctx` check the session again.
 */
export async function adminCaller(
  callers: AdminCallChecker,
  payload: unknown,
  requirement: AdminCallRequirement,
): Promise<AdminCaller> {
  const ctx = readContext(payload);
  const admin = await callers.admin(payload, requirement);
  return { ctx: { ...ctx, admin }, admin };
}
