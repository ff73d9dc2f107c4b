import {
  ADMIN_MESSAGES,
  AUTH_PATTERNS,
  ErrorCode,
  type AdminEndedSessions,
  type AdminUserResponse,
  type BackupCodesResponse,
  type LoginResponse,
  type TwoFactorEnableResponse,
  type WithRefresh,
} from '@vault/contracts';
import { redisKeys } from '@vault/server-kit';
import { generate } from 'otplib';
import { randomUUID } from 'node:crypto';
import { AdminAccountsService } from '../../src/services/admin-accounts.service';
import {
  adminCtx,
  consoleSessionLives,
  eventsOf,
  expectNoSecrets,
  freshIp,
  openConsoleSession,
  signUp,
  signUpSuperAdmin,
  type TestAccount,
} from './support/admin-fixtures';
import { startAuthTestApp, testAppPerFile } from './support/auth-test-app';

describe(AdminAccountsService.name, () => {
  const t = testAppPerFile(() => startAuthTestApp('adminacct'));
  const locker = adminCtx(['users:read', 'users:lock', 'users:2fa', 'sessions:revoke']);

  const login = (a: TestAccount) =>
    t.call<WithRefresh<LoginResponse>>(
      AUTH_PATTERNS.login,
      { identifier: a.body.username, authKey: a.body.authKey },
      { ip: freshIp() },
    );
  const loginFailure = (a: TestAccount) =>
    t.fail(AUTH_PATTERNS.login, { identifier: a.body.username, authKey: a.body.authKey }, { ip: freshIp() });
  const sessionExists = async (sid: string) => (await t.redis.client.exists(redisKeys.session(sid))) === 1;
  const events = (userId: string, type: string) => eventsOf(t, userId, type);
  const consoleSession = (userId: string) => openConsoleSession(t, userId);
  const consoleSessionExists = (hash: string) => consoleSessionLives(t, hash);

  describe('permission re-check', () => {
    it.each([
      [AUTH_PATTERNS.adminLock, 'users:lock', { reason: 'r', duration: 5 }],
      [AUTH_PATTERNS.adminUnlock, 'users:lock', {}],
      [AUTH_PATTERNS.adminRemove2fa, 'users:2fa', { confirm: 'x', reason: 'r' }],
      [AUTH_PATTERNS.adminEndSessions, 'sessions:revoke', {}],
    ] as const)('%s needs %s (and an admin)', async (pattern, permission, extra) => {
      const a = await signUp(t);
      const body = { id: a.userId, ...extra };
      expect((await t.fail(pattern, body)).code).toBe(ErrorCode.ADMIN_REQUIRED);
      const others = adminCtx(
        ['users:read', 'users:lock', 'users:2fa', 'sessions:revoke'].filter((p) => p !== permission) as never,
      );
      expect((await t.fail(pattern, body, others)).code).toBe(ErrorCode.PERMISSION_DENIED);
      // Refused before anything changed.
      expect(await sessionExists(a.sessionId)).toBe(true);
      expect((await login(a)).body).toHaveProperty('user');
    });

    it('set-role: only a super_admin, whatever the admin holds', async () => {
      const a = await signUp(t);
      const body = { id: a.userId, role: 'admin', permissions: ['users:read'], reason: 'help desk' };
      expect((await t.fail(AUTH_PATTERNS.adminSetRole, body)).code).toBe(ErrorCode.ADMIN_REQUIRED);
      const refused = await t.fail(AUTH_PATTERNS.adminSetRole, body, locker);
      expect([refused.code, refused.message]).toEqual([
        ErrorCode.PERMISSION_DENIED,
        ADMIN_MESSAGES.superAdminOnly,
      ]);
      expect((await t.pg.query(`SELECT role FROM auth.users WHERE id = $1`, [a.userId])).rows[0].role).toBe(
        'user',
      );
    });
  });

  describe('lock and unlock', () => {
    it('locks: sign-in answers 423 with retryAfter ≈ the duration, every session ends, the event is recorded', async () => {
      const a = await signUp(t);
      const hash = await consoleSession(a.userId);
      const res = await t.call<AdminUserResponse>(
        AUTH_PATTERNS.adminLock,
        { id: a.userId, reason: 'Suspicious activity', duration: 30 },
        locker,
      );
      expect(res.user).toMatchObject({
        _id: a.userId,
        accountLocked: true,
        accountLockedReason: 'Suspicious activity',
      });
      expect(Date.parse(res.user.lockedUntil!) - Date.now()).toBeGreaterThan(29 * 60_000);
      expectNoSecrets(res, a);

      expect(await sessionExists(a.sessionId)).toBe(false);
      expect(await consoleSessionExists(hash)).toBe(false);
      const locked = await loginFailure(a);
      expect(locked.code).toBe(ErrorCode.ACCOUNT_LOCKED);
      expect(locked.extra.retryAfter).toBeGreaterThanOrEqual(1790);
      expect(locked.extra.retryAfter).toBeLessThanOrEqual(1800);
      // The answer names the administrator's lock, not failed attempts (the sign-in screen says so).
      expect(locked.message).toBe(ADMIN_MESSAGES.lockedByAdmin);
      expect(locked.extra.lockedBy).toBe('admin');
      // The Redis lock alone holds too (the row's copy survives a Redis restart, this one the reverse).
      await t.pg.query(`UPDATE auth.users SET locked_until = NULL WHERE id = $1`, [a.userId]);
      expect((await loginFailure(a)).code).toBe(ErrorCode.ACCOUNT_LOCKED);

      const [event] = await events(a.userId, 'admin_account_locked');
      expect(event!.details).toEqual({
        reason: 'Suspicious activity',
        durationMinutes: 30,
        by: locker.admin!.id,
      });
    });

    it('unlocks: the lock (row and Redis) and the failure count are cleared and sign-in works again', async () => {
      const a = await signUp(t);
      await t.call(AUTH_PATTERNS.adminLock, { id: a.userId, reason: 'x', duration: 60 }, locker);
      await t.pg.query(`UPDATE auth.users SET failed_login_attempts = 3 WHERE id = $1`, [a.userId]);
      const res = await t.call<AdminUserResponse>(
        AUTH_PATTERNS.adminUnlock,
        { id: a.userId, reason: 'ok now' },
        locker,
      );
      expect(res.user).toMatchObject({ accountLocked: false, lockedUntil: null, failedLoginAttempts: 0 });
      expect((await login(a)).body).toHaveProperty('user');
      expect((await events(a.userId, 'admin_account_unlocked'))[0]!.details).toEqual({
        reason: 'ok now',
        by: locker.admin!.id,
      });
    });

    it('refuses locking yourself, and a super_admin unless the actor is one', async () => {
      const a = await signUp(t);
      const self = await t.fail(
        AUTH_PATTERNS.adminLock,
        { id: a.userId, reason: 'x', duration: 5 },
        adminCtx(['users:lock'], 'admin', a.userId),
      );
      expect([self.code, self.message]).toEqual([ErrorCode.FORBIDDEN, ADMIN_MESSAGES.notYourself]);

      await t.pg.query(`UPDATE auth.users SET role = 'super_admin' WHERE id = $1`, [a.userId]);
      const body = { id: a.userId, reason: 'x', duration: 5 };
      const refused = await t.fail(AUTH_PATTERNS.adminLock, body, locker);
      expect([refused.code, refused.message]).toEqual([
        ErrorCode.PERMISSION_DENIED,
        ADMIN_MESSAGES.superAdminTarget,
      ]);
      expect(await sessionExists(a.sessionId)).toBe(true);
      const boss = await signUpSuperAdmin(t);
      const res = await t.call<AdminUserResponse>(AUTH_PATTERNS.adminLock, body, boss.admin);
      expect(res.user.accountLocked).toBe(true);
    });

    it('answers 404 for an unknown account and 400 for a bad body, changing nothing', async () => {
      const missing = await t.fail(
        AUTH_PATTERNS.adminLock,
        { id: randomUUID(), reason: 'x', duration: 5 },
        locker,
      );
      expect([missing.code, missing.message]).toEqual([ErrorCode.NOT_FOUND, ADMIN_MESSAGES.userNotFound]);
      const a = await signUp(t);
      for (const bad of [
        { id: a.userId, reason: 'x', duration: 0 },
        { id: a.userId, reason: 'x', duration: 1.5 },
        { id: a.userId, reason: ' ', duration: 5 },
        { id: a.userId, duration: 5 },
      ]) {
        expect((await t.fail(AUTH_PATTERNS.adminLock, bad, locker)).code).toBe(ErrorCode.VALIDATION_FAILED);
      }
      expect((await login(a)).body).toHaveProperty('user');
    });
  });

  describe('remove 2FA', () => {
    async function enableTwoFactor(a: TestAccount): Promise<void> {
      const { otpauthUrl } = await t.call<TwoFactorEnableResponse>(AUTH_PATTERNS.twoFactorEnable, {}, a.ctx);
      const secret = new URL(otpauthUrl).searchParams.get('secret')!;
      await t.call<BackupCodesResponse>(
        AUTH_PATTERNS.twoFactorVerify,
        { code: await generate({ secret }) },
        a.ctx,
      );
    }

    it('needs the username typed again, then removes the secret and codes: sign-in asks no code', async () => {
      const a = await signUp(t);
      await enableTwoFactor(a);
      expect((await login(a)).body).toEqual({ requires2FA: true });

      const wrong = await t.fail(
        AUTH_PATTERNS.adminRemove2fa,
        { id: a.userId, confirm: `${a.body.username}x`, reason: 'Lost phone' },
        locker,
      );
      expect([wrong.code, wrong.message]).toEqual([
        ErrorCode.VALIDATION_FAILED,
        ADMIN_MESSAGES.confirmMismatch,
      ]);
      expect((await login(a)).body).toEqual({ requires2FA: true });

      const res = await t.call<AdminUserResponse>(
        AUTH_PATTERNS.adminRemove2fa,
        { id: a.userId, confirm: a.body.username.toUpperCase(), reason: 'Lost phone' },
        locker,
      );
      expect(res.user.twoFactorEnabled).toBe(false);
      expect((await login(a)).body).toHaveProperty('user');
      const rows = await t.pg.query(
        `SELECT (SELECT count(*) FROM auth.totp WHERE user_id = $1)::int AS totp,
                (SELECT count(*) FROM auth.backup_codes WHERE user_id = $1)::int AS codes`,
        [a.userId],
      );
      expect(rows.rows[0]).toEqual({ totp: 0, codes: 0 });
      expect((await events(a.userId, 'admin_two_factor_removed'))[0]!.details).toEqual({
        reason: 'Lost phone',
        by: locker.admin!.id,
      });
    });

    it('answers 409 when the account has no 2FA', async () => {
      const a = await signUp(t);
      const body = { id: a.userId, confirm: a.body.username, reason: 'x' };
      expect((await t.fail(AUTH_PATTERNS.adminRemove2fa, body, locker)).code).toBe(ErrorCode.CONFLICT);
    });
  });

  describe('end sessions', () => {
    it('ends every session of the account, vault and console, and counts them', async () => {
      const a = await signUp(t);
      const second = (await login(a)).refresh!.token.split('.')[0]!;
      const hash = await consoleSession(a.userId);
      const res = await t.call<AdminEndedSessions>(AUTH_PATTERNS.adminEndSessions, { id: a.userId }, locker);
      expect(res).toEqual({ ended: 3 });
      expect(await sessionExists(a.sessionId)).toBe(false);
      expect(await sessionExists(second)).toBe(false);
      expect(await consoleSessionExists(hash)).toBe(false);
      expect((await events(a.userId, 'admin_sessions_ended'))[0]!.details).toEqual({
        count: 3,
        consoleSessions: 1,
        reason: null,
        by: locker.admin!.id,
      });
    });
  });
});
