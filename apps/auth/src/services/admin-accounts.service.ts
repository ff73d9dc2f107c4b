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
import { DataSource, type EntityManager } from 'typeorm';
import { setAccountRoleById, type RoleTarget } from '../cli/account-role';
import { toAdminUser } from '../mappers/admin.mapper';
import { AdminSessionsRepository } from '../repositories/admin-sessions.repository';
import { AdminUsersRepository, type AdminUserRow } from '../repositories/admin-users.repository';
import { LoginAttemptsRepository } from '../repositories/login-attempts.repository';
import { SessionsRepository } from '../repositories/sessions.repository';
import { TwoFactorRepository } from '../repositories/two-factor.repository';
import { AdminDirectoryService } from './admin-directory.service';
import { assertMayActOn, assertSuperAdminStanding } from './admin-rank';
import { LoginGuardService } from './login-guard.service';
import { clientOf, SecurityEventsService } from './security-events.service';

const NOT_ENABLED = 'Two-factor authentication is not enabled';

/**
 * What an administrator changes on an account: lock, unlock, remove 2FA, end sessions, set the
 * role. Each writes an `admin_*` event on the account (the user sees it, with the reason), whose
 * `by` is the admin's id. The handler checked the permission (readAdmin); these check the rules
 * that depend on the account (admin-rank.ts): a super_admin only by a super_admin, not on
 * yourself, and at least one unlocked super_admin always remains.
 */
@Injectable()
export class AdminAccountsService {
  private readonly logger = new Logger(AdminAccountsService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly directory: AdminDirectoryService,
    private readonly rows: AdminUsersRepository,
    private readonly attempts: LoginAttemptsRepository,
    private readonly sessions: SessionsRepository,
    private readonly adminSessions: AdminSessionsRepository,
    private readonly twoFactor: TwoFactorRepository,
    private readonly events: SecurityEventsService,
  ) {}

  /**
   * Locked until now + duration: the row (what the console shows, and what survives a Redis
   * restart) and the Redis lock the sign-in checks, so sign-in answers 423 with retryAfter until
   * it ends. Every session of the account, vault and console, ends now. The super_admin rows are
   * locked first (the lock order of set-role too): locking one may not leave none able to sign in.
   */
  async lock(
    admin: RpcAdmin,
    body: { id: string; reason: string; duration: number },
    ctx: RpcContext,
  ): Promise<AdminUserResponse> {
    const until = new Date(Date.now() + body.duration * 60_000);
    const target = await this.dataSource.transaction(async (manager) => {
      await this.rows.lockSuperAdmins(manager);
      const row = await this.lockedTarget(manager, body.id);
      assertMayActOn(admin, row);
      if (row.role === 'super_admin') {
        await assertSuperAdminStanding(this.rows, manager, admin, {
          losing: row.id,
          refusal: ADMIN_MESSAGES.superAdminTarget,
        });
      }
      await this.rows.writeLock(manager, row.id, { until, reason: body.reason });
      return row;
    });
    await this.syncRedisLock(target.id);
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
    const target = await this.dataSource.transaction(async (manager) => {
      const row = await this.lockedTarget(manager, body.id);
      assertMayActOn(admin, row, { self: 'allowed' });
      await this.rows.writeLock(manager, row.id, null);
      return row;
    });
    await this.syncRedisLock(target.id);
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
    assertMayActOn(admin, target);
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

  /**
   * Ends every session of the account, vault and console; `ended` counts both. Your own vault
   * sessions may be ended too, but not the console session you are using.
   */
  async endSessions(
    admin: RpcAdmin,
    body: { id: string; reason?: string },
    ctx: RpcContext,
  ): Promise<AdminEndedSessions> {
    const target = await this.directory.requireUser(body.id);
    assertMayActOn(admin, target, { self: 'allowed' });
    const [vault, consoleSessions] = await Promise.all([
      this.sessions.revokeAllForUser(target.id),
      admin.id === target.id ? 0 : this.adminSessions.endAllFor(target.id),
    ]);
    const ended = vault + consoleSessions;
    await this.events.record('admin_sessions_ended', target.id, ctx, {
      count: ended,
      consoleSessions,
      reason: body.reason ?? null,
      by: admin.id,
    });
    return { ended };
  }

  /**
   * A super_admin sets the role and permissions (stored: [] for user and super_admin, the list
   * for admin) through the role commands' own change (row lock, `role_changed`), with
   * `admin_role_changed` in the same transaction. Every super_admin row is locked first: the
   * actor must still be one, and a demotion may not leave none able to sign in. Back to user
   * ends the console sessions.
   */
  async setRole(
    admin: RpcAdmin,
    body: { id: string; role: RoleTarget['role']; permissions: Permission[]; reason: string },
    ctx: RpcContext,
  ): Promise<AdminUserResponse> {
    if (admin.role !== 'super_admin')
      throw new VaultError(ErrorCode.PERMISSION_DENIED, ADMIN_MESSAGES.superAdminOnly);
    const target: RoleTarget =
      body.role === 'admin'
        ? { role: 'admin', permissions: body.permissions }
        : { role: body.role, permissions: [] };
    const result = await setAccountRoleById(this.dataSource, body.id, target, {
      by: admin.id,
      client: clientOf(ctx),
      alsoRecord: { eventType: 'admin_role_changed', details: { reason: body.reason } },
      lockFirst: (manager) => this.rows.lockSuperAdmins(manager),
      check: async (manager, current) => {
        assertMayActOn(admin, current);
        const demoting = current.role === 'super_admin' && target.role !== 'super_admin';
        await assertSuperAdminStanding(this.rows, manager, admin, {
          losing: demoting ? current.id : undefined,
          refusal: ADMIN_MESSAGES.superAdminOnly,
        });
      },
    });
    if (result.outcome === 'not_found')
      throw new VaultError(ErrorCode.NOT_FOUND, ADMIN_MESSAGES.userNotFound);
    if (result.outcome === 'changed') {
      if (result.to === 'user') await this.adminSessions.endAllFor(body.id);
      this.logger.log(`Role of ${body.id} set to ${result.to} by admin ${admin.id}`);
    }
    return this.answer(body.id);
  }

  private async lockedTarget(manager: EntityManager, id: string): Promise<AdminUserRow> {
    const row = await this.rows.lockRow(manager, id);
    if (!row) throw new VaultError(ErrorCode.NOT_FOUND, ADMIN_MESSAGES.userNotFound);
    return row;
  }

  /**
   * The Redis lock the sign-in checks, written after the commit from the row as it then is,
   * while holding the row: of a lock and an unlock racing, the last write matches the row.
   */
  private async syncRedisLock(id: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const row = await this.rows.lockRow(manager, id);
      const ms = row?.lockedUntil ? row.lockedUntil.getTime() - Date.now() : 0;
      const subject = LoginGuardService.accountSubject(id);
      await (ms > 0 ? this.attempts.setLock(subject, ms) : this.attempts.clearLock(subject));
    });
  }

  private async answer(id: string): Promise<AdminUserResponse> {
    return { user: toAdminUser(await this.directory.requireUser(id)) };
  }
}
