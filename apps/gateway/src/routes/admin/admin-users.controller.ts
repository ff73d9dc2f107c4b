import { Body, Controller, Param, Query } from '@nestjs/common';
import {
  adminActivitySchema,
  adminBulkBodySchema,
  adminEndedSessionsSchema,
  adminLockBodySchema,
  adminReasonBodySchema,
  adminRemove2faBodySchema,
  adminSetRoleBodySchema,
  adminStatsSchema,
  adminUserDetailsSchema,
  adminUserIdParamSchema,
  adminUserListSchema,
  adminUserResponseSchema,
  adminUsersQuerySchema,
  ErrorCode as E,
  type AdminBulkAction,
  type AdminBulkBody,
  type AdminLockBody,
  type AdminReasonBody,
  type AdminRemove2faBody,
  type AdminSetRoleBody,
  type AdminUserIdParam,
  type AdminUsersQuery,
  type RpcContext,
  type RpcReply,
} from '@vault/contracts';
import { AdminOnly } from '../../auth/admin.decorators';
import { Route } from '../../openapi/api-doc';
import { Ctx } from '../../proxy/rpc-context.decorator';
import { RpcClient } from '../../proxy/rpc.client';
import { zodPipe } from '../../validation/zod.pipe';
import { ADMIN_ERRORS, bulkDoc } from './admin-docs';

const USER_ERRORS = [...ADMIN_ERRORS, E.NOT_FOUND];
const userAnswer = [{ description: 'The account as it is now', schema: adminUserResponseSchema }];

/**
 * /api/admin stats and accounts (docs/api.md "Admin"). Each route needs the admin cookie's session
 * and its permission (@AdminOnly, checked by AdminGuard); the admin service checks it again,
 * audits every action before it runs and asks auth, notes and files. Handlers only translate.
 */
@Controller('admin')
export class AdminUsersController {
  constructor(private readonly rpc: RpcClient) {}

  @AdminOnly('stats:read')
  @Route('get', 'stats', {
    summary: 'Counts of accounts, sessions, notes, files and stored bytes (never their contents)',
    success: [{ description: 'Stats', schema: adminStatsSchema }],
    errors: ADMIN_ERRORS,
  })
  adminStats(@Ctx() ctx: RpcContext): Promise<RpcReply<'admin.stats'>> {
    return this.rpc.call('admin.stats', ctx, undefined);
  }

  @AdminOnly('stats:read')
  @Route('get', 'activity', {
    summary: 'Sign-ups and failed sign-ins per hour over the last 168 hours, oldest first',
    success: [{ description: 'Hours', schema: adminActivitySchema }],
    errors: ADMIN_ERRORS,
  })
  adminActivity(@Ctx() ctx: RpcContext): Promise<RpcReply<'admin.activity'>> {
    return this.rpc.call('admin.activity', ctx, undefined);
  }

  @AdminOnly('users:read')
  @Route('get', 'users', {
    summary: 'Accounts, filtered (search: start of username or e-mail; status) and paged (limit, offset)',
    success: [{ description: 'A page of accounts and the total', schema: adminUserListSchema }],
    errors: ADMIN_ERRORS,
  })
  adminUsers(
    @Ctx() ctx: RpcContext,
    @Query(zodPipe(adminUsersQuerySchema)) query: AdminUsersQuery,
  ): Promise<RpcReply<'admin.users'>> {
    return this.rpc.call('admin.users', ctx, query);
  }

  @AdminOnly('users:read')
  @Route('get', 'users/:id', {
    summary: "An account with its sessions, recent security events and its notes' and files' counts",
    success: [{ description: 'Account details', schema: adminUserDetailsSchema }],
    errors: USER_ERRORS,
  })
  adminUser(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(adminUserIdParamSchema)) params: AdminUserIdParam,
  ): Promise<RpcReply<'admin.user'>> {
    return this.rpc.call('admin.user', ctx, params);
  }

  @AdminOnly('users:lock')
  @Route('post', 'users/:id/lock', {
    status: 200,
    summary: 'Lock an account for `duration` minutes, with a reason; ends its sessions (audited)',
    success: userAnswer,
    errors: [...USER_ERRORS, E.FORBIDDEN],
  })
  adminLock(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(adminUserIdParamSchema)) params: AdminUserIdParam,
    @Body(zodPipe(adminLockBodySchema)) body: AdminLockBody,
  ): Promise<RpcReply<'admin.lock'>> {
    return this.rpc.call('admin.lock', ctx, { ...params, ...body });
  }

  @AdminOnly('users:lock')
  @Route('post', 'users/:id/unlock', {
    status: 200,
    summary: 'Unlock an account (audited)',
    success: userAnswer,
    errors: USER_ERRORS,
  })
  adminUnlock(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(adminUserIdParamSchema)) params: AdminUserIdParam,
    @Body(zodPipe(adminReasonBodySchema)) body: AdminReasonBody,
  ): Promise<RpcReply<'admin.unlock'>> {
    return this.rpc.call('admin.unlock', ctx, { ...params, ...body });
  }

  @AdminOnly('users:2fa')
  @Route('post', 'users/:id/remove-2fa', {
    status: 200,
    summary:
      "Remove an account's two-factor authentication: its username typed as `confirm`, a reason (audited)",
    success: userAnswer,
    errors: USER_ERRORS,
  })
  adminRemove2fa(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(adminUserIdParamSchema)) params: AdminUserIdParam,
    @Body(zodPipe(adminRemove2faBodySchema)) body: AdminRemove2faBody,
  ): Promise<RpcReply<'admin.remove-2fa'>> {
    return this.rpc.call('admin.remove-2fa', ctx, { ...params, ...body });
  }

  @AdminOnly('sessions:revoke')
  @Route('post', 'users/:id/end-sessions', {
    status: 200,
    summary: 'End every session of an account (audited)',
    success: [{ description: 'How many sessions ended', schema: adminEndedSessionsSchema }],
    errors: [...USER_ERRORS, E.FORBIDDEN],
  })
  adminEndSessions(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(adminUserIdParamSchema)) params: AdminUserIdParam,
    @Body(zodPipe(adminReasonBodySchema)) body: AdminReasonBody,
  ): Promise<RpcReply<'admin.end-sessions'>> {
    return this.rpc.call('admin.end-sessions', ctx, { ...params, ...body });
  }

  @AdminOnly('super_admin')
  @Route('put', 'users/:id/role', {
    summary: "Set an account's role and an admin's permissions; super_admin only (audited)",
    success: userAnswer,
    errors: [...USER_ERRORS, E.FORBIDDEN],
  })
  adminSetRole(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(adminUserIdParamSchema)) params: AdminUserIdParam,
    @Body(zodPipe(adminSetRoleBodySchema)) body: AdminSetRoleBody,
  ): Promise<RpcReply<'admin.set-role'>> {
    return this.rpc.call('admin.set-role', ctx, { ...params, ...body });
  }

  @AdminOnly('users:lock')
  @Route('post', 'users/bulk/lock', bulkDoc('Lock many accounts (reason and duration required)'))
  adminBulkLock(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(adminBulkBodySchema)) body: AdminBulkBody,
  ): Promise<RpcReply<'admin.bulk'>> {
    return this.bulk(ctx, 'lock', body);
  }

  @AdminOnly('users:lock')
  @Route('post', 'users/bulk/unlock', bulkDoc('Unlock many accounts'))
  adminBulkUnlock(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(adminBulkBodySchema)) body: AdminBulkBody,
  ): Promise<RpcReply<'admin.bulk'>> {
    return this.bulk(ctx, 'unlock', body);
  }

  @AdminOnly('sessions:revoke')
  @Route('post', 'users/bulk/end-sessions', bulkDoc('End every session of many accounts'))
  adminBulkEndSessions(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(adminBulkBodySchema)) body: AdminBulkBody,
  ): Promise<RpcReply<'admin.bulk'>> {
    return this.bulk(ctx, 'end-sessions', body);
  }

  private bulk(
    ctx: RpcContext,
    action: AdminBulkAction,
    body: AdminBulkBody,
  ): Promise<RpcReply<'admin.bulk'>> {
    return this.rpc.call('admin.bulk', ctx, { action, ...body });
  }
}
