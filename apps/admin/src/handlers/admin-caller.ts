import {
  ADMIN_MESSAGES,
  ErrorCode,
  VaultError,
  type Permission,
  type RpcAdmin,
  type RpcContext,
} from '@vault/contracts';
import { readAdmin, readContext } from '@vault/server-kit';

/** An admin call's context (forwarded as it is to auth, notes and files) and its admin. */
export interface AdminCaller {
  ctx: RpcContext;
  admin: RpcAdmin;
}

/**
 * The admin behind a call, who must meet `requirement`: a permission (hasPermission: super_admin
 * holds all), or `super_admin` itself (roles and permissions). The gateway has checked it already;
 * this is the service's own check (defence in depth).
 */
export function adminCaller(payload: unknown, requirement: Permission | 'super_admin'): AdminCaller {
  const ctx = readContext(payload);
  if (requirement !== 'super_admin') return { ctx, admin: readAdmin(payload, requirement) };
  if (!ctx.admin) throw new VaultError(ErrorCode.ADMIN_REQUIRED);
  if (ctx.admin.role !== 'super_admin') {
    throw new VaultError(ErrorCode.PERMISSION_DENIED, ADMIN_MESSAGES.superAdminOnly);
  }
  return { ctx, admin: ctx.admin };
}
