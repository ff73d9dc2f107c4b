import {
  ADMIN_LIMITS,
  ADMIN_MESSAGES,
  AUTH_PATTERNS,
  ErrorCode,
  type AdminActivity,
  type AdminUserList,
  type AuthStats,
  type AuthUserDetails,
} from '@vault/contracts';
import { randomUUID } from 'node:crypto';
import { AdminDirectoryService } from '../../src/services/admin-directory.service';
import { adminCtx, expectNoSecrets, signUp, superAdmin } from './support/admin-fixtures';
import { startAuthTestApp, testAppPerFile } from './support/auth-test-app';

describe(AdminDirectoryService.name, () => {
  const t = testAppPerFile(() => startAuthTestApp('admindir'));
  const reader = adminCtx(['stats:read', 'users:read']);

  const users = (body: Record<string, unknown>) =>
    t.call<AdminUserList>(AUTH_PATTERNS.adminUsers, body, reader);
  const names = (list: AdminUserList) => list.users.map((u) => u.username);

  describe('permission re-check', () => {
    it.each([
      [AUTH_PATTERNS.adminStats, 'stats:read', undefined],
      [AUTH_PATTERNS.adminActivity, 'stats:read', undefined],
      [AUTH_PATTERNS.adminUsers, 'users:read', {}],
      [AUTH_PATTERNS.adminUser, 'users:read', { id: randomUUID() }],
    ] as const)(
      '%s: ADMIN_REQUIRED without an admin, PERMISSION_DENIED without %s',
      async (pattern, _permission, body) => {
        expect((await t.fail(pattern, body)).code).toBe(ErrorCode.ADMIN_REQUIRED);
        const other = adminCtx(['sessions:read', 'security:read']);
        expect((await t.fail(pattern, body, other)).code).toBe(ErrorCode.PERMISSION_DENIED);
        // A role that is no admin role holds nothing, whatever its list says.
        const user = adminCtx(['stats:read', 'users:read'], 'user');
        expect((await t.fail(pattern, body, user)).code).toBe(ErrorCode.PERMISSION_DENIED);
      },
    );

    it('a super_admin passes with an empty list', async () => {
      await expect(
        t.call<AuthStats>(AUTH_PATTERNS.adminStats, undefined, superAdmin()),
      ).resolves.toBeDefined();
    });
  });

  describe('stats and activity', () => {
    it('counts accounts, active and locked ones, recent sign-ups and live sessions', async () => {
      const before = await t.call<AuthStats>(AUTH_PATTERNS.adminStats, undefined, reader);
      const a = await signUp(t);
      const b = await signUp(t);
      await t.pg.query(`UPDATE auth.users SET locked_until = now() + interval '1 hour' WHERE id = $1`, [
        a.userId,
      ]);
      await t.pg.query(
        `UPDATE auth.users SET created_at = now() - interval '8 days', last_login_at = now() - interval '31 days' WHERE id = $1`,
        [b.userId],
      );
      const after = await t.call<AuthStats>(AUTH_PATTERNS.adminStats, undefined, reader);
      expect(after.totalUsers - before.totalUsers).toBe(2);
      expect(after.recentSignups - before.recentSignups).toBe(1);
      expect(after.activeUsers - before.activeUsers).toBe(1);
      expect(after.lockedUsers - before.lockedUsers).toBe(1);
      expect(after.activeSessions - before.activeSessions).toBe(2);
    });

    it('answers 168 hourly buckets, oldest first, zeros included, sign-ups and failed sign-ins counted', async () => {
      const a = await signUp(t);
      await t.fail(
        AUTH_PATTERNS.login,
        { identifier: a.body.username, authKey: 'ab'.repeat(32) },
        { ip: '192.0.2.90' },
      );
      // An event two days ago lands in its own hour; one older than the window is left out.
      await t.pg.query(
        `INSERT INTO auth.security_events (id, user_id, event_type, created_at)
         VALUES ($1, $3, 'signup', now() - interval '48 hours'), ($2, $3, 'signup', now() - interval '200 hours')`,
        [randomUUID(), randomUUID(), a.userId],
      );
      const { hours } = await t.call<AdminActivity>(AUTH_PATTERNS.adminActivity, undefined, reader);
      expect(hours).toHaveLength(ADMIN_LIMITS.activityHours);
      const times = hours.map((h) => Date.parse(h.hour));
      times.slice(1).forEach((time, i) => expect(time - times[i]!).toBe(3_600_000));
      const thisHour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
      expect(times[times.length - 1]).toBe(thisHour);
      const last = hours[hours.length - 1]!;
      expect(last.signups).toBeGreaterThanOrEqual(1);
      expect(last.failedSignIns).toBeGreaterThanOrEqual(1);
      expect(hours.find((h) => Date.parse(h.hour) === thisHour - 48 * 3_600_000)!.signups).toBe(1);
      expect(hours.some((h) => h.signups === 0 && h.failedSignIns === 0)).toBe(true);
    });
  });

  describe('user list', () => {
    it('searches by prefix of username or e-mail, case-insensitive, LIKE wildcards taken literally', async () => {
      const tag = randomUUID().slice(0, 6);
      await signUp(t, { username: `us${tag}_xy`, email: `p%${tag}@example.com` });
      await signUp(t, { username: `us${tag}axy`, email: `pa${tag}@example.com` });
      await signUp(t, { username: `us${tag}_za`, email: `q${tag}@example.org` });

      expect(names(await users({ search: `US${tag}` }))).toHaveLength(3);
      // Unescaped, `_` and `%` would match the second account too.
      expect(names(await users({ search: `us${tag}_` })).sort()).toEqual([`us${tag}_xy`, `us${tag}_za`]);
      expect(names(await users({ search: `us${tag}_x` }))).toEqual([`us${tag}_xy`]);
      expect(names(await users({ search: `P%${tag}` }))).toEqual([`us${tag}_xy`]);
      expect(names(await users({ search: `Q${tag}@EXAMPLE` }))).toEqual([`us${tag}_za`]);
      // A prefix, not a substring.
      expect((await users({ search: tag })).total).toBe(0);
      expect((await users({ search: `%${tag}` })).total).toBe(0);
    });

    it('pages newest first with a total, and filters locked, admins and no-2fa accounts', async () => {
      const tag = randomUUID().slice(0, 6);
      const made = [];
      for (let i = 0; i < 5; i += 1) made.push(await signUp(t, { username: `page${tag}${i}` }));
      const all = await users({ search: `page${tag}`, limit: 2 });
      expect(all.total).toBe(5);
      const pages = [all, await users({ search: `page${tag}`, limit: 2, offset: 2 })];
      pages.push(await users({ search: `page${tag}`, limit: 2, offset: 4 }));
      expect(pages.flatMap(names)).toEqual(made.map((m) => m.body.username).reverse());

      await t.pg.query(
        `UPDATE auth.users SET locked_until = now() + interval '1 day', locked_reason = 'x' WHERE id = $1`,
        [made[0]!.userId],
      );
      await t.pg.query(`UPDATE auth.users SET locked_until = now() - interval '1 day' WHERE id = $1`, [
        made[1]!.userId,
      ]);
      await t.pg.query(`UPDATE auth.users SET role = 'admin', permissions = '{users:read}' WHERE id = $1`, [
        made[2]!.userId,
      ]);
      await t.pg.query(`UPDATE auth.users SET two_factor_enabled = true WHERE id = $1`, [made[3]!.userId]);

      const locked = await users({ search: `page${tag}`, status: 'locked' });
      expect(names(locked)).toEqual([made[0]!.body.username]);
      expect(locked.users[0]).toMatchObject({ accountLocked: true, accountLockedReason: 'x' });
      expect(names(await users({ search: `page${tag}`, status: 'admins' }))).toEqual([
        made[2]!.body.username,
      ]);
      expect((await users({ search: `page${tag}`, status: 'no-2fa' })).total).toBe(4);
      const expired = (await users({ search: made[1]!.body.username })).users[0]!;
      expect(expired).toMatchObject({ accountLocked: false, lockedUntil: null });
      expectNoSecrets(all);
    });

    it('refuses bad queries with 400', async () => {
      expect((await t.fail(AUTH_PATTERNS.adminUsers, { limit: 1000 }, reader)).code).toBe(
        ErrorCode.VALIDATION_FAILED,
      );
      expect((await t.fail(AUTH_PATTERNS.adminUsers, { status: 'nope' }, reader)).code).toBe(
        ErrorCode.VALIDATION_FAILED,
      );
    });
  });

  describe('one user', () => {
    it('answers the account, its live sessions and its 20 latest events, nothing secret', async () => {
      const a = await signUp(t);
      for (let i = 0; i < 25; i += 1) {
        await t.pg.query(
          `INSERT INTO auth.security_events (id, user_id, event_type, details, created_at)
           VALUES ($1, $2, 'settings_changed', '{"n": ${i}}', now() - interval '1 hour' + ${i} * interval '1 second')`,
          [randomUUID(), a.userId],
        );
      }
      const details = await t.call<AuthUserDetails>(AUTH_PATTERNS.adminUser, { id: a.userId }, reader);
      expect(details.user).toMatchObject({ _id: a.userId, username: a.body.username, role: 'user' });
      expect(details.sessions.map((s) => s.sessionId)).toEqual([a.sessionId]);
      expect(details.sessions[0]).toMatchObject({ userId: a.userId, email: a.body.email });
      expect(details.events).toHaveLength(ADMIN_LIMITS.userEventsShown);
      expect(details.events[0]!.event.eventType).toBe('signup');
      expect(details.events[1]!.event.details).toEqual({ n: 24 });
      expectNoSecrets(details, a);
    });

    it('answers 404 for an unknown id and 400 for a malformed one', async () => {
      const missing = await t.fail(AUTH_PATTERNS.adminUser, { id: randomUUID() }, reader);
      expect([missing.code, missing.message]).toEqual([ErrorCode.NOT_FOUND, ADMIN_MESSAGES.userNotFound]);
      expect((await t.fail(AUTH_PATTERNS.adminUser, { id: 'x' }, reader)).code).toBe(
        ErrorCode.VALIDATION_FAILED,
      );
    });
  });
});
