import { ADMIN_MESSAGES, AUTH_PATTERNS, ErrorCode, type AdminUserResponse } from '@vault/contracts';
import { randomUUID } from 'node:crypto';
import {
  consoleSessionLives,
  eventsOf,
  openConsoleSession,
  signUp,
  signUpSuperAdmin,
  superAdmin,
} from './support/admin-fixtures';
import { startAuthTestApp, testAppPerFile } from './support/auth-test-app';

/** auth.admin.set-role (AdminAccountsService.setRole): the super_admin's role changes. */
describe('admin set-role', () => {
  const t = testAppPerFile(() => startAuthTestApp('adminrole'));
  const events = (userId: string, type: string) => eventsOf(t, userId, type);
  const consoleSession = (userId: string) => openConsoleSession(t, userId);
  const consoleSessionExists = (hash: string) => consoleSessionLives(t, hash);

  const stored = async (id: string) =>
    (await t.pg.query(`SELECT role, permissions FROM auth.users WHERE id = $1`, [id])).rows[0];

  it('sets role and permissions, records role_changed and admin_role_changed; back to user ends console sessions', async () => {
    const a = await signUp(t);
    const boss = (await signUpSuperAdmin(t)).admin;
    const res = await t.call<AdminUserResponse>(
      AUTH_PATTERNS.adminSetRole,
      { id: a.userId, role: 'admin', permissions: ['users:read', 'stats:read'], reason: 'Support team' },
      boss,
    );
    expect(res.user).toMatchObject({ role: 'admin', permissions: ['users:read', 'stats:read'] });
    expect(await stored(a.userId)).toEqual({ role: 'admin', permissions: ['users:read', 'stats:read'] });
    expect((await events(a.userId, 'role_changed'))[0]!.details).toMatchObject({
      from: 'user',
      to: 'admin',
    });
    const [changed] = await events(a.userId, 'admin_role_changed');
    expect(changed!.details).toEqual({
      from: 'user',
      to: 'admin',
      by: boss.admin!.id,
      permissions: 'users:read,stats:read',
      reason: 'Support team',
    });
    expect(changed!.ip_address).toBe('198.51.100.7');

    await t.call(
      AUTH_PATTERNS.adminSetRole,
      { id: a.userId, role: 'super_admin', permissions: ['users:read'], reason: 'x' },
      boss,
    );
    expect(await stored(a.userId)).toEqual({ role: 'super_admin', permissions: [] });

    const hash = await consoleSession(a.userId);
    await t.call(AUTH_PATTERNS.adminSetRole, { id: a.userId, role: 'user', reason: 'Left the team' }, boss);
    expect(await stored(a.userId)).toEqual({ role: 'user', permissions: [] });
    expect(await consoleSessionExists(hash)).toBe(false);
  });

  it('refuses your own role and answers 404 for an unknown account', async () => {
    const a = await signUp(t);
    const self = await t.fail(
      AUTH_PATTERNS.adminSetRole,
      { id: a.userId, role: 'user', reason: 'x' },
      superAdmin(a.userId),
    );
    expect([self.code, self.message]).toEqual([ErrorCode.FORBIDDEN, ADMIN_MESSAGES.notYourself]);
    const missing = await t.fail(
      AUTH_PATTERNS.adminSetRole,
      { id: randomUUID(), role: 'user', reason: 'x' },
      superAdmin(),
    );
    expect(missing.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('refuses an actor no longer super_admin (or locked) in the database, changing nothing', async () => {
    const a = await signUp(t);
    const boss = await signUpSuperAdmin(t);
    const body = { id: a.userId, role: 'admin', permissions: ['users:read'], reason: 'x' };
    await t.pg.query(`UPDATE auth.users SET role = 'admin' WHERE id = $1`, [boss.userId]);
    const demoted = await t.fail(AUTH_PATTERNS.adminSetRole, body, boss.admin);
    expect([demoted.code, demoted.message]).toEqual([
      ErrorCode.PERMISSION_DENIED,
      ADMIN_MESSAGES.superAdminOnly,
    ]);
    await t.pg.query(
      `UPDATE auth.users SET role = 'super_admin', locked_until = now() + interval '1 hour' WHERE id = $1`,
      [boss.userId],
    );
    expect((await t.fail(AUTH_PATTERNS.adminSetRole, body, boss.admin)).code).toBe(
      ErrorCode.PERMISSION_DENIED,
    );
    expect(await stored(a.userId)).toEqual({ role: 'user', permissions: [] });
    expect(await events(a.userId, 'role_changed')).toEqual([]);
  });

  it('two super admins demoting each other at once: one wins, one super admin remains', async () => {
    for (let round = 0; round < 3; round += 1) {
      const [a, b] = [await signUpSuperAdmin(t), await signUpSuperAdmin(t)];
      const results = await Promise.allSettled([
        t.call(AUTH_PATTERNS.adminSetRole, { id: b.userId, role: 'user', reason: 'x' }, a.admin),
        t.call(AUTH_PATTERNS.adminSetRole, { id: a.userId, role: 'user', reason: 'x' }, b.admin),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ code: ErrorCode.PERMISSION_DENIED });
      const roles = [(await stored(a.userId)).role, (await stored(b.userId)).role].sort();
      expect(roles).toEqual(['super_admin', 'user']);
    }
  });
});
