import {
  ADMIN_MESSAGES,
  AUTH_PATTERNS,
  ErrorCode,
  VaultError,
  type AdminEndedSessions,
} from '@vault/contracts';
import { redisKeys } from '@vault/server-kit';
import { DataSource } from 'typeorm';
import { AdminUsersRepository } from '../../src/repositories/admin-users.repository';
import { assertSuperAdminStanding } from '../../src/services/admin-rank';
import {
  adminCtx,
  consoleSessionLives,
  openConsoleSession,
  signUp,
  signUpSuperAdmin,
} from './support/admin-fixtures';
import { startAuthTestApp, testAppPerFile } from './support/auth-test-app';

/** admin-rank.ts: who may act on whom, the last super admin, and lock/unlock serialised per account. */
describe('admin rank rules', () => {
  const t = testAppPerFile(() => startAuthTestApp('adminrank'));
  const all = ['users:read', 'users:lock', 'users:2fa', 'sessions:read', 'sessions:revoke'] as const;
  const admin = (id?: string) => adminCtx([...all], 'admin', id);
  const sessionExists = async (sid: string) => (await t.redis.client.exists(redisKeys.session(sid))) === 1;
  const lockedRow = async (id: string) =>
    (await t.pg.query(`SELECT locked_until > now() AS locked FROM auth.users WHERE id = $1`, [id])).rows[0]
      .locked === true;
  const redisLocked = async (id: string) => (await t.redis.client.exists(`lockout:lock:u:${id}`)) === 1;

  it('a plain admin may act on no super_admin account: lock, unlock, remove 2FA, end and revoke sessions', async () => {
    const boss = await signUpSuperAdmin(t);
    const id = boss.userId;
    for (const [pattern, body] of [
      [AUTH_PATTERNS.adminLock, { id, reason: 'x', duration: 5 }],
      [AUTH_PATTERNS.adminUnlock, { id }],
      [AUTH_PATTERNS.adminRemove2fa, { id, confirm: boss.body.username, reason: 'x' }],
      [AUTH_PATTERNS.adminEndSessions, { id }],
      [AUTH_PATTERNS.adminRevokeSession, { id: boss.sessionId }],
    ] as const) {
      const refused = await t.fail(pattern, body, admin());
      expect([pattern, refused.code, refused.message]).toEqual([
        pattern,
        ErrorCode.PERMISSION_DENIED,
        ADMIN_MESSAGES.superAdminTarget,
      ]);
    }
    expect(await sessionExists(boss.sessionId)).toBe(true);
    expect(await lockedRow(id)).toBe(false);
    // Another super admin may.
    const other = await signUpSuperAdmin(t);
    await t.call(AUTH_PATTERNS.adminRevokeSession, { id: boss.sessionId }, other.admin);
    expect(await sessionExists(boss.sessionId)).toBe(false);
  });

  it('not on yourself: lock and remove 2FA refused; your own vault sessions may end, your console session stays', async () => {
    const a = await signUp(t);
    const self = admin(a.userId);
    for (const [pattern, body] of [
      [AUTH_PATTERNS.adminLock, { id: a.userId, reason: 'x', duration: 5 }],
      [AUTH_PATTERNS.adminRemove2fa, { id: a.userId, confirm: a.body.username, reason: 'x' }],
    ] as const) {
      const refused = await t.fail(pattern, body, self);
      expect([refused.code, refused.message]).toEqual([ErrorCode.FORBIDDEN, ADMIN_MESSAGES.notYourself]);
    }
    const hash = await openConsoleSession(t, a.userId);
    const res = await t.call<AdminEndedSessions>(AUTH_PATTERNS.adminEndSessions, { id: a.userId }, self);
    expect(res).toEqual({ ended: 1 });
    expect(await sessionExists(a.sessionId)).toBe(false);
    expect(await consoleSessionLives(t, hash)).toBe(true);

    const again = await signUp(t);
    await t.call(AUTH_PATTERNS.adminRevokeSession, { id: again.sessionId }, admin(again.userId));
    expect(await sessionExists(again.sessionId)).toBe(false);
  });

  it('two super admins locking each other at once: one wins, the other stays able to sign in', async () => {
    for (let round = 0; round < 3; round += 1) {
      const [a, b] = [await signUpSuperAdmin(t), await signUpSuperAdmin(t)];
      const results = await Promise.allSettled([
        t.call(AUTH_PATTERNS.adminLock, { id: b.userId, reason: 'x', duration: 5 }, a.admin),
        t.call(AUTH_PATTERNS.adminLock, { id: a.userId, reason: 'x', duration: 5 }, b.admin),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({
        code: ErrorCode.PERMISSION_DENIED,
        message: ADMIN_MESSAGES.superAdminTarget,
      });
      expect([await lockedRow(a.userId), await lockedRow(b.userId)].sort()).toEqual([false, true]);
    }
  });

  it('refuses (409) leaving no unlocked super admin, and an actor no longer an unlocked super admin', async () => {
    const dataSource = t.app.get(DataSource);
    const repo = t.app.get(AdminUsersRepository);
    const boss = await signUpSuperAdmin(t);
    // Every other super admin of this database locked: boss is the last one able to sign in.
    await t.pg.query(
      `UPDATE auth.users SET locked_until = now() + interval '1 hour' WHERE role = 'super_admin' AND id <> $1`,
      [boss.userId],
    );
    const standing = (losing?: string) =>
      dataSource.transaction(async (manager) => {
        await repo.lockSuperAdmins(manager);
        await assertSuperAdminStanding(repo, manager, boss.admin.admin!, { losing, refusal: 'no' });
      });
    const last = await standing(boss.userId).catch((e: unknown) => e);
    expect(last).toBeInstanceOf(VaultError);
    expect(last).toMatchObject({ code: ErrorCode.CONFLICT, message: ADMIN_MESSAGES.lastSuperAdmin });
    const another = await signUpSuperAdmin(t);
    await expect(standing(boss.userId)).resolves.toBeUndefined();
    await t.pg.query(`UPDATE auth.users SET role = 'user' WHERE id = $1`, [boss.userId]);
    await expect(standing()).rejects.toMatchObject({ code: ErrorCode.PERMISSION_DENIED, message: 'no' });
    await t.pg.query(`UPDATE auth.users SET role = 'user' WHERE id = $1`, [another.userId]);
  });

  it('lock and unlock racing on one account leave Redis as the row says', async () => {
    const a = await signUp(t);
    const locker = admin();
    for (let round = 0; round < 6; round += 1) {
      await Promise.all([
        t.call(AUTH_PATTERNS.adminLock, { id: a.userId, reason: 'x', duration: 5 }, locker),
        t.call(AUTH_PATTERNS.adminUnlock, { id: a.userId }, locker),
      ]);
      expect(await redisLocked(a.userId)).toBe(await lockedRow(a.userId));
    }
  });
});
