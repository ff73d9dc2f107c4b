import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AUTH_PATTERNS,
  type AdminActivity,
  type AdminEndedSessions,
  type AdminEventList,
  type AdminSessionList,
  type AdminUserList,
  type AdminUserResponse,
  type AuthStats,
  type AuthUserDetails,
} from '@vault/contracts';
import { CallerService, readContext, readRpcBody } from '@vault/server-kit';
import { AdminAccountsService } from '../services/admin-accounts.service';
import { AdminDirectoryService } from '../services/admin-directory.service';
import { AdminEventsService } from '../services/admin-events.service';
import { AdminUserSessionsService } from '../services/admin-user-sessions.service';

/**
 * What the admin service asks auth for (docs/api.md "Admin"). Called with ctx.admin set; each
 * call checks the admin's live console session and permission again (CallerService.admin:
 * ADMIN_REQUIRED without an admin, UNAUTHENTICATED without its session, PERMISSION_DENIED without
 * the permission) before reading its body.
 */
@Controller()
export class AdminHandler {
  constructor(
    private readonly caller: CallerService,
    private readonly directory: AdminDirectoryService,
    private readonly accounts: AdminAccountsService,
    private readonly events: AdminEventsService,
    private readonly sessions: AdminUserSessionsService,
  ) {}

  @MessagePattern(AUTH_PATTERNS.adminStats)
  async stats(@Payload() payload: unknown): Promise<AuthStats> {
    await this.caller.admin(payload, 'stats:read');
    return this.directory.stats();
  }

  @MessagePattern(AUTH_PATTERNS.adminActivity)
  async activity(@Payload() payload: unknown): Promise<AdminActivity> {
    await this.caller.admin(payload, 'stats:read');
    return this.directory.activity();
  }

  @MessagePattern(AUTH_PATTERNS.adminUsers)
  async users(@Payload() payload: unknown): Promise<AdminUserList> {
    await this.caller.admin(payload, 'users:read');
    return this.directory.users(readRpcBody(AUTH_PATTERNS.adminUsers, payload));
  }

  @MessagePattern(AUTH_PATTERNS.adminUser)
  async user(@Payload() payload: unknown): Promise<AuthUserDetails> {
    await this.caller.admin(payload, 'users:read');
    return this.directory.user(readRpcBody(AUTH_PATTERNS.adminUser, payload).id);
  }

  @MessagePattern(AUTH_PATTERNS.adminLock)
  async lock(@Payload() payload: unknown): Promise<AdminUserResponse> {
    const admin = await this.caller.admin(payload, 'users:lock');
    return this.accounts.lock(admin, readRpcBody(AUTH_PATTERNS.adminLock, payload), readContext(payload));
  }

  @MessagePattern(AUTH_PATTERNS.adminUnlock)
  async unlock(@Payload() payload: unknown): Promise<AdminUserResponse> {
    const admin = await this.caller.admin(payload, 'users:lock');
    return this.accounts.unlock(admin, readRpcBody(AUTH_PATTERNS.adminUnlock, payload), readContext(payload));
  }

  @MessagePattern(AUTH_PATTERNS.adminRemove2fa)
  async removeTwoFactor(@Payload() payload: unknown): Promise<AdminUserResponse> {
    const admin = await this.caller.admin(payload, 'users:2fa');
    const body = readRpcBody(AUTH_PATTERNS.adminRemove2fa, payload);
    return this.accounts.removeTwoFactor(admin, body, readContext(payload));
  }

  @MessagePattern(AUTH_PATTERNS.adminEndSessions)
  async endSessions(@Payload() payload: unknown): Promise<AdminEndedSessions> {
    const admin = await this.caller.admin(payload, 'sessions:revoke');
    const body = readRpcBody(AUTH_PATTERNS.adminEndSessions, payload);
    return this.accounts.endSessions(admin, body, readContext(payload));
  }

  /** Not a permission: only a super_admin sets roles (the service says so too). */
  @MessagePattern(AUTH_PATTERNS.adminSetRole)
  async setRole(@Payload() payload: unknown): Promise<AdminUserResponse> {
    const admin = await this.caller.admin(payload, 'super_admin');
    const body = readRpcBody(AUTH_PATTERNS.adminSetRole, payload);
    return this.accounts.setRole(admin, body, readContext(payload));
  }

  @MessagePattern(AUTH_PATTERNS.adminEvents)
  async eventList(@Payload() payload: unknown): Promise<AdminEventList> {
    await this.caller.admin(payload, 'security:read');
    return this.events.list(readRpcBody(AUTH_PATTERNS.adminEvents, payload));
  }

  @MessagePattern(AUTH_PATTERNS.adminSessions)
  async sessionList(@Payload() payload: unknown): Promise<AdminSessionList> {
    await this.caller.admin(payload, 'sessions:read');
    return this.sessions.list(readRpcBody(AUTH_PATTERNS.adminSessions, payload));
  }

  @MessagePattern(AUTH_PATTERNS.adminRevokeSession)
  async revokeSession(@Payload() payload: unknown): Promise<{ userId: string }> {
    const admin = await this.caller.admin(payload, 'sessions:revoke');
    const { id } = readRpcBody(AUTH_PATTERNS.adminRevokeSession, payload);
    return this.sessions.revoke(admin, id, readContext(payload));
  }
}
