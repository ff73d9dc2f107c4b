import {
  AUTH_PATTERNS,
  ErrorCode,
  type AdminSessionCheckReply,
  type AdminSessionResponse,
  type AdminSignInReply,
  type AuthResponse,
  type BackupCodesResponse,
  type Role,
  type SignupBody,
  type TwoFactorEnableResponse,
  type WithRefresh,
} from '@vault/contracts';
import { sha256Hex } from '@vault/server-kit';
import { generate } from 'otplib';
import { AdminSessionsRepository } from '../../src/repositories/admin-sessions.repository';
import { AdminSessionService } from '../../src/services/admin-session.service';
import { authOf, hex, signupBody, startAuthTestApp, testAppPerFile } from './support/auth-test-app';

let ipCounter = 0;
const freshIp = () => `198.51.100.${(ipCounter += 1) % 250}`;
const IP_MAX_FAILURES = 8;

describe(AdminSessionService.name, () => {
  const t = testAppPerFile(() =>
    startAuthTestApp('adminsession', { LOGIN_IP_MAX_FAILURES: String(IP_MAX_FAILURES) }),
  );
  const service = () => t.app.get(AdminSessionService);
  const { idleMs, maxMs } = { idleMs: 20 * 60_000, maxMs: 8 * 3_600_000 };

  interface Account {
    body: SignupBody;
    userId: string;
    secret?: string;
  }

  async function forgetReplayMarks(userId: string): Promise<void> {
    const keys = await t.redis.client.keys(`*totp-used:${userId}:*`);
    for (const key of keys) await t.redis.client.del(key.slice(t.redis.prefix.length));
  }

  async function account(role: Role = 'user', opts: { twoFactor?: boolean } = {}): Promise<Account> {
    const body = signupBody();
    const res = await t.call<WithRefresh<AuthResponse>>(AUTH_PATTERNS.signup, body, { ip: freshIp() });
    const userId = res.body.user.id;
    const a: Account = { body, userId };
    if (opts.twoFactor ?? role !== 'user') {
      const claims = JSON.parse(Buffer.from(res.body.access.split('.')[1]!, 'base64url').toString()) as {
        sid: string;
      };
      const ctx = authOf(userId, claims.sid);
      const { otpauthUrl } = await t.call<TwoFactorEnableResponse>(AUTH_PATTERNS.twoFactorEnable, {}, ctx);
      a.secret = new URL(otpauthUrl).searchParams.get('secret')!;
      await t.call<BackupCodesResponse>(AUTH_PATTERNS.twoFactorVerify, { code: await code(a) }, ctx);
    }
    await setRole(userId, role, role === 'admin' ? ['users:read'] : []);
    return a;
  }

  const setRole = (userId: string, role: Role, permissions: string[] = []) =>
    t.pg.query(`UPDATE auth.users SET role = $2, permissions = $3 WHERE id = $1`, [
      userId,
      role,
      permissions,
    ]);

  async function code(a: Account): Promise<string> {
    await forgetReplayMarks(a.userId);
    return generate({ secret: a.secret!, epoch: Date.now() / 1000 });
  }

  const signIn = (a: Account, extra: { totpCode?: string; authKey?: string } = {}, ip = freshIp()) =>
    t.call<AdminSignInReply>(
      AUTH_PATTERNS.adminSignIn,
      { identifier: a.body.username, authKey: a.body.authKey, ...extra },
      { ip, userAgent: 'console-test' },
    );
  const failSignIn = (a: Account, extra: { totpCode?: string; authKey?: string } = {}, ip = freshIp()) =>
    t.fail(
      AUTH_PATTERNS.adminSignIn,
      { identifier: a.body.username, authKey: a.body.authKey, ...extra },
      { ip },
    );

  async function signedIn(
    a: Account,
  ): Promise<{ token: string; body: AdminSessionResponse; maxAge: number }> {
    const reply = await signIn(a, { totpCode: await code(a) });
    if (!('session' in reply)) throw new Error('expected a session');
    return { token: reply.session.token, body: reply.body, maxAge: reply.session.maxAgeSeconds };
  }

  const check = (token: string) => t.call<AdminSessionCheckReply>(AUTH_PATTERNS.adminSession, { token });
  const checkFails = (token: string) => t.fail(AUTH_PATTERNS.adminSession, { token });

  const events = async (userId: string) =>
    (
      await t.pg.query<{ event_type: string; details: Record<string, unknown> }>(
        `SELECT event_type, details FROM auth.security_events WHERE user_id = $1 ORDER BY created_at`,
        [userId],
      )
    ).rows.filter((e) => e.event_type.startsWith('admin_'));

  const failures = async (userId: string) =>
    (await t.pg.query(`SELECT failed_login_attempts FROM auth.users WHERE id = $1`, [userId])).rows[0]
      .failed_login_attempts as number;

  const sessionKey = (token: string) => `admin-sess:${sha256Hex(token)}`;

  describe('sign-in', () => {
    it('refuses a regular account with the right key as ADMIN_REQUIRED, recorded, not counted', async () => {
      const a = await account('user');
      for (let i = 0; i < 6; i += 1) expect((await failSignIn(a)).code).toBe(ErrorCode.ADMIN_REQUIRED);
      expect(await failures(a.userId)).toBe(0);
      const refused = await events(a.userId);
      expect(refused).toHaveLength(6);
      expect(refused[0]).toEqual({ event_type: 'admin_signin_refused', details: { reason: 'not_admin' } });
    });

    it('refuses an admin without 2FA as ADMIN_2FA_REQUIRED', async () => {
      const a = await account('admin', { twoFactor: false });
      expect((await failSignIn(a)).code).toBe(ErrorCode.ADMIN_2FA_REQUIRED);
      expect(await events(a.userId)).toEqual([
        { event_type: 'admin_signin_refused', details: { reason: 'no_2fa' } },
      ]);
    });

    it('asks for the code when none (or a blank one) is given, and starts nothing', async () => {
      const a = await account('super_admin');
      expect(await signIn(a)).toEqual({ body: { requires2FA: true } });
      expect(await signIn(a, { totpCode: '  ' })).toEqual({ body: { requires2FA: true } });
      expect(await t.redis.client.keys('*admin-sess*')).toEqual(
        expect.not.arrayContaining([expect.stringContaining(a.userId)]),
      );
      expect(await events(a.userId)).toEqual([]);
    });

    it('answers a wrong key and an unknown account alike, counted as admin_signin_failure', async () => {
      const a = await account('admin');
      expect((await failSignIn(a, { authKey: hex(32) })).code).toBe(ErrorCode.INVALID_CREDENTIALS);
      const unknown = await t.fail(
        AUTH_PATTERNS.adminSignIn,
        { identifier: `nobody_${hex(4)}`, authKey: hex(32) },
        { ip: freshIp() },
      );
      expect(unknown.code).toBe(ErrorCode.INVALID_CREDENTIALS);
      expect(await failures(a.userId)).toBe(1);
      expect(await events(a.userId)).toEqual([
        { event_type: 'admin_signin_failure', details: { reason: 'bad_key' } },
      ]);
    });

    it('counts wrong codes toward the lockout: the fifth locks, then even the right code is refused', async () => {
      const a = await account('admin');
      for (let i = 1; i <= 4; i += 1) {
        const wrong = await failSignIn(a, { totpCode: (await code(a)) === '000000' ? '000001' : '000000' });
        expect(wrong.code).toBe(ErrorCode.INVALID_VERIFICATION_CODE);
      }
      const fifth = await failSignIn(a, { totpCode: 'abcdef' });
      expect(fifth.code).toBe(ErrorCode.ACCOUNT_LOCKED);
      expect(fifth.extra).toEqual({ retryAfter: 600 });
      expect((await failSignIn(a, { totpCode: await code(a) })).code).toBe(ErrorCode.ACCOUNT_LOCKED);
      const types = (await events(a.userId)).map((e) => `${e.event_type}:${String(e.details['reason'])}`);
      expect(types).toEqual([
        ...Array(5).fill('admin_signin_failure:bad_second_factor'),
        'admin_signin_failure:locked',
      ]);
      // The vault's own sign-in is locked too: one lockout per account.
      const vault = await t.fail(AUTH_PATTERNS.login, { identifier: a.body.email, authKey: a.body.authKey });
      expect(vault.code).toBe(ErrorCode.ACCOUNT_LOCKED);
    });

    it('counts toward the per-IP throttle like the vault sign-in', async () => {
      const ip = freshIp();
      for (let i = 0; i < IP_MAX_FAILURES; i += 1) {
        const res = await t.fail(
          AUTH_PATTERNS.adminSignIn,
          { identifier: `x_${hex(4)}`, authKey: hex(32) },
          { ip },
        );
        expect(res.code).toBe(ErrorCode.INVALID_CREDENTIALS);
      }
      const a = await account('admin');
      expect((await failSignIn(a, { totpCode: await code(a) }, ip)).code).toBe(ErrorCode.RATE_LIMITED);
    });

    it('signs in: an admin session only (no vault session, no tokens), stored by its hash alone', async () => {
      const a = await account('admin');
      await failSignIn(a, { authKey: hex(32) });
      const userSessionsBefore = await t.redis.client.smembers(`user-sess:${a.userId}`);
      const { token, body, maxAge } = await signedIn(a);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(maxAge).toBe(maxMs / 1000);
      expect(body.admin).toEqual({
        id: a.userId,
        email: a.body.email,
        username: a.body.username,
        role: 'admin',
        permissions: ['users:read'],
      });
      const json = JSON.stringify(body);
      for (const secret of [token, sha256Hex(token), a.body.wrappedVaultKey])
        expect(json).not.toContain(secret);
      expect(json).not.toContain('access');
      expect(await t.redis.client.smembers(`user-sess:${a.userId}`)).toEqual(userSessionsBefore);
      expect(await failures(a.userId)).toBe(0);
      expect((await events(a.userId)).map((e) => e.event_type)).toEqual([
        'admin_signin_failure',
        'admin_signin_success',
      ]);

      const stored = await t.redis.client.hgetall(sessionKey(token));
      expect(stored).toEqual({
        userId: a.userId,
        createdAt: expect.any(String),
        expiresAt: String(Number(stored['createdAt']) + maxMs),
        lastSeenAt: stored['createdAt'],
        ip: expect.stringMatching(/^198\.51\.100\./),
        userAgent: 'console-test',
        // The rights services take for this admin's calls (server-kit readAdmin), never the message's.
        role: 'admin',
        permissions: '["users:read"]',
      });
      const pttl = await t.redis.client.pttl(sessionKey(token));
      expect(pttl).toBeGreaterThan(idleMs - 5_000);
      expect(pttl).toBeLessThanOrEqual(idleMs);
      // The token itself is nowhere in Redis, neither as a key nor as a value.
      for (const key of await t.redis.client.keys('*')) {
        expect(key).not.toContain(token);
        const type = await t.redis.client.type(key.slice(t.redis.prefix.length));
        if (type === 'hash') {
          const values = await t.redis.client.hgetall(key.slice(t.redis.prefix.length));
          expect(JSON.stringify(values)).not.toContain(token);
        }
      }
    });
  });

  describe('session', () => {
    it('answers the admin from the database and moves the idle end on', async () => {
      const a = await account('super_admin');
      const { token, body } = await signedIn(a);
      await setRole(a.userId, 'super_admin', ['audit:read', 'not-a-permission']);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const { session: res, key } = await check(token);
      expect(res.admin).toMatchObject({ id: a.userId, role: 'super_admin', permissions: ['audit:read'] });
      expect(res.expiresAt).toBe(body.expiresAt);
      expect(Date.parse(res.idleExpiresAt)).toBeGreaterThan(Date.parse(body.idleExpiresAt));
      expect(JSON.stringify(res)).not.toContain(token);
      expect(JSON.stringify(res)).not.toContain(sha256Hex(token));
      // Beside the answer (for the gateway's context only): the session's key, the token's hash.
      expect(key).toBe(sha256Hex(token));
      // The rights just read are the session's now: services re-check calls against them.
      expect(await t.redis.client.hmget(sessionKey(token), 'userId', 'role', 'permissions')).toEqual([
        a.userId,
        'super_admin',
        '["audit:read"]',
      ]);
    });

    it('stores nothing for a session that ended meanwhile (no hash without expiry left behind)', async () => {
      const a = await account('admin');
      const { token } = await signedIn(a);
      const repository = t.app.get(AdminSessionsRepository);
      await repository.end(sha256Hex(token));
      await repository.grant(sha256Hex(token), { role: 'super_admin', permissions: [] });
      expect(await t.redis.client.exists(sessionKey(token))).toBe(0);
    });

    it('keeps the session through the lock failed sign-ins put on the account (anyone can cause it)', async () => {
      const a = await account('admin');
      const { token } = await signedIn(a);
      // The fifth wrong key locks the account with the failures' own reason.
      for (let i = 0; i < 5; i++) await failSignIn(a, { authKey: hex(32) });
      const { rows } = await t.pg.query(`SELECT locked_until, locked_reason FROM auth.users WHERE id = $1`, [
        a.userId,
      ]);
      expect(rows[0].locked_until.getTime()).toBeGreaterThan(Date.now());
      expect(rows[0].locked_reason).toBe('Too many failed login attempts');
      expect((await check(token)).session.admin.id).toBe(a.userId);
      expect(await t.redis.client.exists(sessionKey(token))).toBe(1);
    });

    it('answers UNAUTHENTICATED for unknown, malformed or missing tokens', async () => {
      for (const token of [hex(16).slice(0, 43).padEnd(43, 'A'), 'short', 'x'.repeat(200)]) {
        expect((await checkFails(token)).code).toBe(ErrorCode.UNAUTHENTICATED);
      }
      expect((await t.fail(AUTH_PATTERNS.adminSession, {})).code).toBe(ErrorCode.UNAUTHENTICATED);
    });

    it('ends after the idle time without a check, and at the absolute end even when used', async () => {
      const a = await account('admin');
      const idle = await signedIn(a);
      const start = Date.now();
      await expect(service().check(idle.token, start + idleMs - 1_000)).resolves.toBeDefined();
      await expect(service().check(idle.token, start + 2 * idleMs)).rejects.toMatchObject({
        code: ErrorCode.UNAUTHENTICATED,
      });
      expect(await t.redis.client.exists(sessionKey(idle.token))).toBe(0);

      const busy = await signedIn(a);
      const created = Number(await t.redis.client.hget(sessionKey(busy.token), 'createdAt'));
      let now = created;
      while (now + idleMs / 2 < created + maxMs) {
        now += idleMs / 2;
        const res = await service().check(busy.token, now);
        expect(Date.parse(res.session.idleExpiresAt)).toBe(Math.min(now + idleMs, created + maxMs));
      }
      await expect(service().check(busy.token, created + maxMs)).rejects.toMatchObject({
        code: ErrorCode.UNAUTHENTICATED,
      });
    });

    it.each([
      [
        'demoted',
        `UPDATE auth.users SET role = 'user', permissions = '{}' WHERE id = $1`,
        ErrorCode.ADMIN_REQUIRED,
      ],
      [
        '2FA off',
        `UPDATE auth.users SET two_factor_enabled = false WHERE id = $1`,
        ErrorCode.ADMIN_2FA_REQUIRED,
      ],
      [
        'locked by an administrator',
        `UPDATE auth.users SET locked_until = now() + interval '1 hour', locked_reason = 'Spam wave' WHERE id = $1`,
        ErrorCode.UNAUTHENTICATED,
      ],
      ['deleted', `DELETE FROM auth.users WHERE id = $1`, ErrorCode.UNAUTHENTICATED],
    ])('ends the session of an account %s', async (_what, sql, expected) => {
      const a = await account('admin');
      const { token } = await signedIn(a);
      await t.pg.query(sql, [a.userId]);
      expect((await checkFails(token)).code).toBe(expected);
      expect(await t.redis.client.exists(sessionKey(token))).toBe(0);
      expect((await checkFails(token)).code).toBe(ErrorCode.UNAUTHENTICATED);
    });
  });

  describe('sign-out and endAllFor', () => {
    it('signs out once (recorded), then answers null again without a change', async () => {
      const a = await account('admin');
      const { token } = await signedIn(a);
      expect(await t.call(AUTH_PATTERNS.adminSignOut, { token }, { ip: freshIp() })).toBeNull();
      expect(await t.call(AUTH_PATTERNS.adminSignOut, { token }, { ip: freshIp() })).toBeNull();
      expect(await t.call(AUTH_PATTERNS.adminSignOut, { token: 'nope' })).toBeNull();
      expect((await checkFails(token)).code).toBe(ErrorCode.UNAUTHENTICATED);
      expect(await t.redis.client.smembers(`admin-sess-of:${a.userId}`)).toEqual([]);
      expect((await events(a.userId)).map((e) => e.event_type)).toEqual([
        'admin_signin_success',
        'admin_signout',
      ]);
    });

    it('ends every admin session of a user and only theirs', async () => {
      const a = await account('admin');
      const b = await account('admin');
      const [a1, a2, b1] = [await signedIn(a), await signedIn(a), await signedIn(b)];
      expect(await t.redis.client.scard(`admin-sess-of:${a.userId}`)).toBe(2);
      expect(await service().endAllFor(a.userId)).toBe(2);
      expect(await service().endAllFor(a.userId)).toBe(0);
      for (const s of [a1, a2]) expect((await checkFails(s.token)).code).toBe(ErrorCode.UNAUTHENTICATED);
      expect((await check(b1.token)).session.admin.id).toBe(b.userId);
    });
  });
});
