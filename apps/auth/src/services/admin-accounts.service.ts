import { Injectable, Logger } from '@nestjs/common';
import {
  ADMIN_MESSAGES,
  ErrorCode,
  VaultError,
  type AdminEndedSessions,
  type AdminUserResponse,
  type Permission,
  type RpcAdmin,
  type RpcContext,
} from '@vault/contracts';
import { DataSource } from 'typeorm';
import { setAccountRoleById, type RoleTarget } from '../cli/account-role';
import { toAdminUser } from '../mappers/admin.mapper';
import { AdminSessionsRepository } from '../repositories/admin-sessions.repository';
import { LoginAttemptsRepository } from '../repositories/login-attempts.repository';
import { SessionsRepository } from '../repositories/sessions.repository';
import { TwoFactorRepository } from '../repositories/two-factor.repository';
import { UsersRepository } from '../repositories/users.repository';
import { AdminDirectoryService } from './admin-directory.service';
import { LoginGuardService } from './login-guard.service';
import { clientOf, SecurityEventsService } from './security-events.service';

const NOT_ENABLED = 'Two-factor authentication is not enabled';
const SUPER_ADMIN_LOCK = 'Only a super admin can lock a super admin';

/**
 * What an administrator changes on an account: lock, unlock, remove 2FA, end sessions, set the
 * role. Each writes an `admin_*` event on the account (the user sees it, with the reason), whose
 * `by` is the admin's id. The handler checked the permission (readAdmin); these check the rules
 * that depend on the account: never on yourself, a super_admin only by a super_admin.
 */
@Injectable()
export class AdminAccountsService {
  private readonly logger = new Logger(AdminAccountsService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly directory: AdminDirectoryService,
    private readonly users: UsersRepository,
    private readonly attempts: LoginAttemptsRepository,
    private readonly sessions: SessionsRepository,
    private readonly adminSessions: AdminSessionsRepository,
    private readonly twoFactor: TwoFactorRepository,
    private readonly events: SecurityEventsService,
  ) {}

  /**
   * Locked until now + duration: the row (what the console shows, and what survives a Redis
   * restart) and the Redis lock the sign-in checks, so sign-in answers 423 with retryAfter until
   * it ends. Every session of the account, vault and console, ends now.
   */
  async lock(
    admin: RpcAdmin,
    body: { id: string; reason: string; duration: number },
    ctx: RpcContext,
  ): Promise<AdminUserResponse> {
    notYourself(admin, body.id);
    const target = await this.directory.requireUser(body.id);
    if (target.role === 'super_admin' && admin.role !== 'super_admin') {
      throw new VaultError(ErrorCode.PERMISSION_DENIED, SUPER_ADMIN_LOCK);
    }
    const ms = body.duration * 60_000;
    await this.users.setLoginFailures(target.id, 0, {
      until: new Date(Date.now() + ms),
      reason: body.reason,
    });
    await this.attempts.setLock(LoginGuardService.accountSubject(target.id), ms);
    await Promise.all([this.sessions.revokeAllForUser(target.id), this.adminSessions.endAllFor(target.id)]);
    await this.events.record('admin_account_locked', target.id, ctx, {
      reason: body.reason,
      durationMinutes: body.duration,
      by: admin.id,
    });
    this.logger.log(`Account ${target.id} locked for ${body.duration} min by admin ${admin.id}`);
    return this.answer(target.id);
  }

  /** Clears the lock (row and Redis) and the failure count, whoever set it. */
  async unlock(
    admin: RpcAdmin,
    body: { id: string; reason?: string },
    ctx: RpcContext,
  ): Promise<AdminUserResponse> {
    const target = await this.directory.requireUser(body.id);
    await this.users.clearLoginFailures(target.id);
    await this.attempts.clearLock(LoginGuardService.accountSubject(target.id));
    await this.events.record('admin_account_unlocked', target.id, ctx, {
      reason: body.reason ?? null,
      by: admin.id,
    });
    this.logger.log(`Account ${target.id} unlocked by admin ${admin.id}`);
    return this.answer(target.id);
  }

  /**
   * Removes the authenticator secret and every backup code (TwoFactorRepository.disable, the
   * user's own disable). The username typed again guards against the wrong row. An admin
   * without 2FA may not use the console: their console sessions end.
   */
  async removeTwoFactor(
    admin: RpcAdmin,
    body: { id: string; confirm: string; reason: string },
    ctx: RpcContext,
  ): Promise<AdminUserResponse> {
    const target = await this.directory.requireUser(body.id);
    if (body.confirm.trim().toLowerCase() !== target.username.toLowerCase()) {
      throw new VaultError(ErrorCode.VALIDATION_FAILED, ADMIN_MESSAGES.confirmMismatch);
    }
    if (!target.twoFactorEnabled) throw new VaultError(ErrorCode.CONFLICT, NOT_ENABLED);
    await this.twoFactor.disable(
      target.id,
      this.events.build('admin_two_factor_removed', target.id, ctx, { reason: body.reason, by: admin.id }),
    );
    await this.adminSessions.endAllFor(target.id);
    this.logger.log(`Two-factor authentication of ${target.id} removed by admin ${admin.id}`);
    return this.answer(target.id);
  }

  /** Ends every vault session of the account (its console sessions are its own business). */
  async endSessions(
    admin: RpcAdmin,
    body: { id: string; reason?: string },
    ctx: RpcContext,
  ): Promise<AdminEndedSessions> {
    const target = await this.directory.requireUser(body.id);
    const ended = await this.sessions.revokeAllForUser(target.id);
    await this.events.record('admin_sessions_ended', target.id, ctx, {
      count: ended,
      reason: body.reason ?? null,
      by: admin.id,
    });
    return { ended };
  }

  /**
   * A super_admin sets the role and permissions (stored: [] for user and super_admin, the list
   * for admin) through the role commands' own change (row lock, `role_changed`), with
   * `admin_role_changed` in the same transaction. Back to user ends the console sessions.
   */
  async setRole(
    admin: RpcAdmin,
    body: { id: string; role: RoleTarget['role']; permissions: Permission[]; reason: string },
    ctx: RpcContext,
  ): Promise<AdminUserResponse> {
    if (admin.role !== 'super_admin')
      throw new VaultError(ErrorCode.PERMISSION_DENIED, ADMIN_MESSAGES.superAdminOnly);
    notYourself(admin, body.id);
    const target: RoleTarget =
      body.role === 'admin'
        ? { role: 'admin', permissions: body.permissions }
        : { role: body.role, permissions: [] };
    const result = await setAccountRoleById(this.dataSource, body.id, target, {
      by: admin.id,
      client: clientOf(ctx),
      alsoRecord: { eventType: 'admin_role_changed', details: { reason: body.reason } },
    });
    if (result.outcome === 'not_found')
      throw new VaultError(ErrorCode.NOT_FOUND, ADMIN_MESSAGES.userNotFound);
    if (result.outcome === 'changed') {
      if (result.to === 'user') await this.adminSessions.endAllFor(body.id);
      this.logger.log(`Role of ${body.id} set to ${result.to} by admin ${admin.id}`);
    }
    return this.answer(body.id);
  }

  private async answer(id: string): Promise<AdminUserResponse> {
    return { user: toAdminUser(await this.directory.requireUser(id)) };
  }
}

function notYourself(admin: RpcAdmin, id: string): void {
  if (admin.id === id) throw new VaultError(ErrorCode.FORBIDDEN, ADMIN_MESSAGES.notYourself);
}
