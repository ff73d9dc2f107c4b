import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AUTH_PATTERNS,
  ErrorCode,
  VaultError,
  type AdminActivity,
  type AdminEndedSessions,
  type AdminEventList,
  type AdminSessionList,
  type AdminUserList,
  type AdminUserResponse,
  type AuthStats,
  type AuthUserDetails,
  type RpcAdmin,
} from '@vault/contracts';
import { readAdmin, readContext, readRpcBody } from '@vault/server-kit';
import { AdminAccountsService } from '../services/admin-accounts.service';
import { AdminDirectoryService } from '../services/admin-directory.service';
import { AdminEventsService } from '../services/admin-events.service';
import { AdminUserSessionsService } from '../services/admin-user-sessions.service';

/**
 * What the admin service asks auth for (docs/api.md "Admin"). Called with ctx.admin set; each
 * call checks the admin's permission again (readAdmin: ADMIN_REQUIRED without an admin,
 * PERMISSION_DENIED without the permission) before reading its body.
 */
@Controller()
export class AdminHandler {
  constructor(
    private readonly directory: AdminDirectoryService,
    private readonly accounts: AdminAccountsService,
    private readonly events: AdminEventsService,
    private readonly sessions: AdminUserSessionsService,
  ) {}

  @MessagePattern(AUTH_PATTERNS.adminStats)
  stats(@Payload() payload: unknown): Promise<AuthStats> {
    readAdmin(payload, 'stats:read');
    return this.directory.stats();
  }

  @MessagePattern(AUTH_PATTERNS.adminActivity)
  activity(@Payload() payload: unknown): Promise<AdminActivity> {
    readAdmin(payload, 'stats:read');
    return this.directory.activity();
  }

  @MessagePattern(AUTH_PATTERNS.adminUsers)
  users(@Payload() payload: unknown): Promise<AdminUserList> {
    readAdmin(payload, 'users:read');
    return this.directory.users(readRpcBody(AUTH_PATTERNS.adminUsers, payload));
  }

  @MessagePattern(AUTH_PATTERNS.adminUser)
  user(@Payload() payload: unknown): Promise<AuthUserDetails> {
    readAdmin(payload, 'users:read');
    return this.directory.user(readRpcBody(AUTH_PATTERNS.adminUser, payload).id);
  }

  @MessagePattern(AUTH_PATTERNS.adminLock)
  lock(@Payload() payload: unknown): Promise<AdminUserResponse> {
    const admin = readAdmin(payload, 'users:lock');
    return this.accounts.lock(admin, readRpcBody(AUTH_PATTERNS.adminLock, payload), readContext(payload));
  }

  @MessagePattern(AUTH_PATTERNS.adminUnlock)
  unlock(@Payload() payload: unknown): Promise<AdminUserResponse> {
    const admin = readAdmin(payload, 'users:lock');
    return this.accounts.unlock(admin, readRpcBody(AUTH_PATTERNS.adminUnlock, payload), readContext(payload));
  }

  @MessagePattern(AUTH_PATTERNS.adminRemove2fa)
  removeTwoFactor(@Payload() payload: unknown): Promise<AdminUserResponse> {
    const admin = readAdmin(payload, 'users:2fa');
    const body = readRpcBody(AUTH_PATTERNS.adminRemove2fa, payload);
    return this.accounts.removeTwoFactor(admin, body, readContext(payload));
  }

  @MessagePattern(AUTH_PATTERNS.adminEndSessions)
  endSessions(@Payload() payload: unknown): Promise<AdminEndedSessions> {
    const admin = readAdmin(payload, 'sessions:revoke');
    const body = readRpcBody(AUTH_PATTERNS.adminEndSessions, payload);
    return this.accounts.endSessions(admin, body, readContext(payload));
  }

  /** Not a permission: only a super_admin sets roles (the service says so). */
  @MessagePattern(AUTH_PATTERNS.adminSetRole)
  setRole(@Payload() payload: unknown): Promise<AdminUserResponse> {
    const ctx = readContext(payload);
    const admin: RpcAdmin | undefined = ctx.admin;
    if (!admin) throw new VaultError(ErrorCode.ADMIN_REQUIRED);
    return this.accounts.setRole(admin, readRpcBody(AUTH_PATTERNS.adminSetRole, payload), ctx);
  }

  @MessagePattern(AUTH_PATTERNS.adminEvents)
  eventList(@Payload() payload: unknown): Promise<AdminEventList> {
    readAdmin(payload, 'security:read');
    return this.events.list(readRpcBody(AUTH_PATTERNS.adminEvents, payload));
  }

  @MessagePattern(AUTH_PATTERNS.adminSessions)
  sessionList(@Payload() payload: unknown): Promise<AdminSessionList> {
    readAdmin(payload, 'sessions:read');
    return this.sessions.list(readRpcBody(AUTH_PATTERNS.adminSessions, payload));
  }

  @MessagePattern(AUTH_PATTERNS.adminRevokeSession)
  revokeSession(@Payload() payload: unknown): Promise<{ userId: string }> {
    const admin = readAdmin(payload, 'sessions:revoke');
    const { id } = readRpcBody(AUTH_PATTERNS.adminRevokeSession, payload);
    return this.sessions.revoke(admin, id, readContext(payload));
  }
}
