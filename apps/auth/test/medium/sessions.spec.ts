import {
  AUTH_PATTERNS,
  ErrorCode,
  type AuthResponse,
  type LoginResponse,
  type MeResponse,
  type PreloginResponse,
  type RefreshResponse,
  type SessionListResponse,
  type WithRefresh,
} from '@vault/contracts';
import { createHash, randomUUID } from 'node:crypto';
import { importSPKI, jwtVerify } from 'jose';
import { SessionService } from '../../src/services/session.service';
import {
  authOf,
  hex,
  sealedKeyValue,
  signupBody,
  sleep,
  startAuthTestApp,
  testAppPerFile,
} from './support/auth-test-app';

const GRACE_SECONDS = 1;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const sidOf = (token: string) => token.split('.')[0]!;

describe(SessionService.name, () => {
  const t = testAppPerFile(() =>
    startAuthTestApp('sessions', { REFRESH_REUSE_GRACE_SECONDS: String(GRACE_SECONDS) }),
  );

  interface Account {
    body: ReturnType<typeof signupBody>;
    userId: string;
    token: string;
    sid: string;
  }

  async function newAccount(): Promise<Account> {
    const body = signupBody();
    const res = await t.call<WithRefresh<AuthResponse>>(AUTH_PATTERNS.signup, body, { ip: '192.0.2.1' });
    return { body, userId: res.body.user.id, token: res.refresh!.token, sid: sidOf(res.refresh!.token) };
  }

  async function login(account: Account, ip = '192.0.2.2', userAgent = 'Chrome/140') {
    const res = await t.call<WithRefresh<LoginResponse>>(
      AUTH_PATTERNS.login,
      { identifier: account.body.username, authKey: account.body.authKey },
      { ip, userAgent },
    );
    return { token: res.refresh!.token, sid: sidOf(res.refresh!.token) };
  }

  const refresh = (refreshToken: string, ip = '192.0.2.3') =>
    t.call<WithRefresh<RefreshResponse>>(AUTH_PATTERNS.refresh, { refreshToken }, { ip });

  const session = (sid: string) => t.redis.client.hgetall(`sess:${sid}`);
  const eventTypes = async (userId: string) =>
    (
      await t.pg.query<{ event_type: string }>(
        `SELECT event_type FROM auth.security_events WHERE user_id = $1 ORDER BY created_at`,
        [userId],
      )
    ).rows.map((r) => r.event_type);

  describe('refresh', () => {
    it('rotates: a new access token for the same session and a new refresh token', async () => {
      const a = await newAccount();
      const res = await refresh(a.token);
      expect(res.refresh?.token).toBeDefined();
      expect(res.refresh!.token).not.toBe(a.token);
      expect(sidOf(res.refresh!.token)).toBe(a.sid);
      expect(res.refresh!.maxAgeSeconds).toBeGreaterThan(2_592_000 - 5);
      expect(res.refresh!.maxAgeSeconds).toBeLessThanOrEqual(2_592_000);

      const key = await importSPKI(t.publicKeyPem, 'EdDSA');
      const { payload } = await jwtVerify(res.body.access, key, { audience: 'vault', issuer: 'vault-auth' });
      expect(payload).toMatchObject({ sub: a.userId, sid: a.sid, role: 'user' });

      const stored = await session(a.sid);
      expect(stored.refreshHash).toBe(sha256(res.refresh!.token));
      expect(stored.prevRefreshHash).toBe(sha256(a.token));
      expect(JSON.stringify(stored)).not.toContain(a.token.split('.')[1]);
      expect(JSON.stringify(stored)).not.toContain(res.refresh!.token.split('.')[1]);
    });

    it('keeps the session data in sess:{sid} and slides lastSeenAt but not the absolute end', async () => {
      const a = await newAccount();
      const before = await session(a.sid);
      expect(before).toMatchObject({ userId: a.userId, ip: '192.0.2.1', userAgent: 'jest' });
      const ttlBefore = await t.redis.client.pttl(`sess:${a.sid}`);
      await sleep(20);
      await refresh(a.token, '192.0.2.99');
      const after = await session(a.sid);
      expect(Number(after.lastSeenAt)).toBeGreaterThan(Number(before.lastSeenAt));
      expect(after.expiresAt).toBe(before.expiresAt);
      expect(after.createdAt).toBe(before.createdAt);
      expect(after.ip).toBe('192.0.2.99');
      expect(await t.redis.client.pttl(`sess:${a.sid}`)).toBeLessThanOrEqual(ttlBefore);
    });

    it('puts the current role in the new access token', async () => {
      const a = await newAccount();
      await t.pg.query(`UPDATE auth.users SET role = 'admin' WHERE id = $1`, [a.userId]);
      const res = await refresh(a.token);
      const key = await importSPKI(t.publicKeyPem, 'EdDSA');
      expect((await jwtVerify(res.body.access, key)).payload.role).toBe('admin');
    });

    it('lets two concurrent refreshes with the same token both succeed; only one rotates', async () => {
      const a = await newAccount();
      const [x, y] = await Promise.all([refresh(a.token), refresh(a.token)]);
      expect(x.body.access).toEqual(expect.any(String));
      expect(y.body.access).toEqual(expect.any(String));
      const grants = [x, y].filter((r) => r.refresh);
      expect(grants).toHaveLength(1);
      expect(await t.redis.client.exists(`sess:${a.sid}`)).toBe(1);
      // The rotated token carries on.
      const next = await refresh(grants[0]!.refresh!.token);
      expect(next.refresh).toBeDefined();
    });

    it('answers the previous token within the grace with an access token and no new refresh token', async () => {
      const a = await newAccount();
      const rotated = await refresh(a.token);
      const again = await refresh(a.token);
      expect(again.body.access).toEqual(expect.any(String));
      expect(again.refresh).toBeUndefined();
      // The grace answer did not rotate anything: the newer token still works.
      expect((await refresh(rotated.refresh!.token)).refresh).toBeDefined();
    });

    it('treats the previous token after the grace as reuse: the session is revoked everywhere', async () => {
      const a = await newAccount();
      const rotated = await refresh(a.token);
      await sleep(GRACE_SECONDS * 1000 + 150);
      const error = await t.fail(AUTH_PATTERNS.refresh, { refreshToken: a.token });
      expect(error.code).toBe(ErrorCode.REFRESH_REUSED);
      expect(await t.redis.client.exists(`sess:${a.sid}`)).toBe(0);
      expect(await t.redis.client.sismember(`user-sess:${a.userId}`, a.sid)).toBe(0);
      // The thief's or the victim's newer token dies with it.
      expect((await t.fail(AUTH_PATTERNS.refresh, { refreshToken: rotated.refresh!.token })).code).toBe(
        ErrorCode.REFRESH_INVALID,
      );
      const rows = (
        await t.pg.query(
          `SELECT details FROM auth.security_events WHERE user_id = $1 AND event_type = 'refresh_reuse'`,
          [a.userId],
        )
      ).rows;
      expect(rows).toEqual([{ details: { sessionId: a.sid } }]);
    });

    it('treats an older token (two rotations back) as reuse', async () => {
      const a = await newAccount();
      const r1 = await refresh(a.token);
      await refresh(r1.refresh!.token);
      const error = await t.fail(AUTH_PATTERNS.refresh, { refreshToken: a.token });
      expect(error.code).toBe(ErrorCode.REFRESH_REUSED);
      expect(await t.redis.client.exists(`sess:${a.sid}`)).toBe(0);
    });

    it('leaves other sessions of the user alone when one family is revoked for reuse', async () => {
      const a = await newAccount();
      const other = await login(a);
      await refresh(a.token);
      await sleep(GRACE_SECONDS * 1000 + 150);
      await t.fail(AUTH_PATTERNS.refresh, { refreshToken: a.token });
      expect(await t.redis.client.exists(`sess:${other.sid}`)).toBe(1);
    });

    it.each([
      ['a garbled', 'not-a-token'],
      ['an empty', ''],
      ['an unknown', `${randomUUID()}.${'A'.repeat(43)}`],
    ])('answers 401 REFRESH_INVALID for %s token', async (_label, refreshToken) => {
      expect((await t.fail(AUTH_PATTERNS.refresh, { refreshToken })).code).toBe(ErrorCode.REFRESH_INVALID);
    });

    it('answers a never-issued token for a live session REFRESH_INVALID and leaves the session alive', async () => {
      const a = await newAccount();
      const rotated = await refresh(a.token);
      await sleep(GRACE_SECONDS * 1000 + 150);
      const before = await session(a.sid);
      for (const secret of ['A'.repeat(43), Buffer.alloc(32, 7).toString('base64url')]) {
        const error = await t.fail(AUTH_PATTERNS.refresh, { refreshToken: `${a.sid}.${secret}` });
        expect(error.code).toBe(ErrorCode.REFRESH_INVALID);
      }
      // Nothing changed: the live token still rotates, and no reuse was recorded.
      expect(await session(a.sid)).toEqual(before);
      expect((await refresh(rotated.refresh!.token)).refresh).toBeDefined();
      expect(await eventTypes(a.userId)).not.toContain('refresh_reuse');
    });

    it('remembers rotated tokens only as truncated hashes that expire with the session', async () => {
      const a = await newAccount();
      const r1 = await refresh(a.token);
      const r2 = await refresh(r1.refresh!.token);
      const members = await t.redis.client.zrange(`sess-rot:${a.sid}`, 0, -1);
      expect(members.sort()).toEqual(
        [sha256(a.token).slice(0, 32), sha256(r1.refresh!.token).slice(0, 32)].sort(),
      );
      const [rotTtl, sessTtl] = await Promise.all([
        t.redis.client.pttl(`sess-rot:${a.sid}`),
        t.redis.client.pttl(`sess:${a.sid}`),
      ]);
      expect(Math.abs(rotTtl - sessTtl)).toBeLessThan(5_000);
      // Ending the session forgets them at once.
      await t.call(AUTH_PATTERNS.logout, { refreshToken: r2.refresh!.token });
      expect(await t.redis.client.exists(`sess-rot:${a.sid}`)).toBe(0);
    });

    it('answers 401 REFRESH_INVALID without a token', async () => {
      expect((await t.fail(AUTH_PATTERNS.refresh, {})).code).toBe(ErrorCode.REFRESH_INVALID);
    });

    it('answers 401 REFRESH_INVALID once the session has expired', async () => {
      const a = await newAccount();
      await t.redis.client.pexpire(`sess:${a.sid}`, 1);
      await sleep(10);
      expect((await t.fail(AUTH_PATTERNS.refresh, { refreshToken: a.token })).code).toBe(
        ErrorCode.REFRESH_INVALID,
      );
    });
  });

  describe('logout', () => {
    it('revokes the session its refresh token names and records logout', async () => {
      const a = await newAccount();
      expect(await t.call(AUTH_PATTERNS.logout, { refreshToken: a.token })).toBeNull();
      expect(await t.redis.client.exists(`sess:${a.sid}`)).toBe(0);
      expect((await t.fail(AUTH_PATTERNS.refresh, { refreshToken: a.token })).code).toBe(
        ErrorCode.REFRESH_INVALID,
      );
      expect(await eventTypes(a.userId)).toEqual(['signup', 'logout']);
    });

    it('revokes the caller’s session when no token comes', async () => {
      const a = await newAccount();
      await t.call(AUTH_PATTERNS.logout, {}, authOf(a.userId, a.sid));
      expect(await t.redis.client.exists(`sess:${a.sid}`)).toBe(0);
    });

    it('is idempotent and ignores a token that does not check out', async () => {
      const a = await newAccount();
      const forged = `${a.sid}.${'B'.repeat(43)}`;
      expect(await t.call(AUTH_PATTERNS.logout, { refreshToken: forged })).toBeNull();
      expect(await t.redis.client.exists(`sess:${a.sid}`)).toBe(1);
      await t.call(AUTH_PATTERNS.logout, { refreshToken: a.token });
      expect(await t.call(AUTH_PATTERNS.logout, { refreshToken: a.token })).toBeNull();
      expect(await t.call(AUTH_PATTERNS.logout, {})).toBeNull();
      expect(await eventTypes(a.userId)).toEqual(['signup', 'logout']);
    });
  });

  describe('sessions', () => {
    it('lists the caller’s own sessions, newest activity first, flagging the current one', async () => {
      const a = await newAccount();
      await sleep(5);
      const second = await login(a, '192.0.2.50', 'Safari/18');
      const b = await newAccount();
      const list = await t.call<SessionListResponse>(
        AUTH_PATTERNS.listSessions,
        undefined,
        authOf(a.userId, a.sid),
      );
      expect(list.sessions).toHaveLength(2);
      expect(list.sessions.map((s) => s.id)).toEqual([second.sid, a.sid]);
      expect(list.sessions[0]).toEqual({
        id: second.sid,
        current: false,
        ipAddress: '192.0.2.50',
        userAgent: 'Safari/18',
        createdAt: expect.any(String),
        lastSeenAt: expect.any(String),
        expiresAt: expect.any(String),
      });
      expect(list.sessions[1]?.current).toBe(true);
      expect(list.sessions.map((s) => s.id)).not.toContain(b.sid);
    });

    it('drops sessions that ended from the list', async () => {
      const a = await newAccount();
      const second = await login(a);
      await t.redis.client.del(`sess:${second.sid}`);
      const list = await t.call<SessionListResponse>(
        AUTH_PATTERNS.listSessions,
        undefined,
        authOf(a.userId, a.sid),
      );
      expect(list.sessions.map((s) => s.id)).toEqual([a.sid]);
      expect(await t.redis.client.smembers(`user-sess:${a.userId}`)).toEqual([a.sid]);
    });

    it('revokes one of the caller’s own sessions and records session_revoked', async () => {
      const a = await newAccount();
      const second = await login(a);
      expect(
        await t.call(AUTH_PATTERNS.revokeSession, { id: second.sid }, authOf(a.userId, a.sid)),
      ).toBeNull();
      expect(await t.redis.client.exists(`sess:${second.sid}`)).toBe(0);
      expect(await t.redis.client.exists(`sess:${a.sid}`)).toBe(1);
      expect(await eventTypes(a.userId)).toEqual(['signup', 'signin_success', 'session_revoked']);
    });

    it('answers 404 for another user’s session and for an unknown id, and touches nothing', async () => {
      const a = await newAccount();
      const b = await newAccount();
      const other = await t.fail(AUTH_PATTERNS.revokeSession, { id: b.sid }, authOf(a.userId, a.sid));
      expect(other.code).toBe(ErrorCode.NOT_FOUND);
      expect(await t.redis.client.exists(`sess:${b.sid}`)).toBe(1);
      const unknown = await t.fail(
        AUTH_PATTERNS.revokeSession,
        { id: randomUUID() },
        authOf(a.userId, a.sid),
      );
      expect(unknown.code).toBe(ErrorCode.NOT_FOUND);
      expect(await eventTypes(a.userId)).toEqual(['signup']);
    });

    it('answers 400 for an id that is not a UUID', async () => {
      const a = await newAccount();
      const error = await t.fail(AUTH_PATTERNS.revokeSession, { id: 'x' }, authOf(a.userId, a.sid));
      expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    });
  });

  describe('verifyAuthKey (file download and preview re-check)', () => {
    it('answers ok for the right key', async () => {
      const a = await newAccount();
      expect(
        await t.call(AUTH_PATTERNS.verifyAuthKey, { authKey: a.body.authKey }, authOf(a.userId, a.sid)),
      ).toEqual({
        ok: true,
      });
    });

    it("refuses a wrong or malformed key with 401 'Invalid password', records reauth_failure, locks nothing", async () => {
      const a = await newAccount();
      const wrong = await t.fail(AUTH_PATTERNS.verifyAuthKey, { authKey: hex(32) }, authOf(a.userId, a.sid));
      expect(wrong).toMatchObject({ code: ErrorCode.INVALID_PASSWORD, message: 'Invalid password' });
      const malformed = await t.fail(
        AUTH_PATTERNS.verifyAuthKey,
        { authKey: 'nope' },
        authOf(a.userId, a.sid),
      );
      expect(malformed.code).toBe(ErrorCode.INVALID_PASSWORD);
      expect(await eventTypes(a.userId)).toContain('reauth_failure');
      const row = (await t.pg.query(`SELECT failed_login_attempts FROM auth.users WHERE id = $1`, [a.userId]))
        .rows[0];
      expect(row).toEqual({ failed_login_attempts: 0 });
    });

    it('needs a live session of that user', async () => {
      const a = await newAccount();
      const b = await newAccount();
      const forged = await t.fail(
        AUTH_PATTERNS.verifyAuthKey,
        { authKey: a.body.authKey },
        authOf(a.userId, b.sid),
      );
      expect(forged.code).toBe(ErrorCode.SESSION_REVOKED);
    });
  });

  describe('changePassword', () => {
    const newCredentials = () => ({
      authKey: hex(32),
      salt: hex(16),
      kdfParams: { kdf: 'pbkdf2-sha256' as const, iterations: 600_000 },
      wrappedVaultKey: sealedKeyValue(),
    });

    it('refuses a wrong current key with 401 and changes nothing, without counting toward lockout', async () => {
      const a = await newAccount();
      const error = await t.fail(
        AUTH_PATTERNS.changePassword,
        { currentAuthKey: hex(32), ...newCredentials() },
        authOf(a.userId, a.sid),
      );
      expect(error.code).toBe(ErrorCode.INVALID_CREDENTIALS);
      const row = (
        await t.pg.query(`SELECT salt, failed_login_attempts FROM auth.users WHERE id = $1`, [a.userId])
      ).rows[0];
      expect(row).toEqual({ salt: a.body.salt, failed_login_attempts: 0 });
    });

    it('stores the new credentials, keeps this session, ends the others, and records password_changed', async () => {
      const a = await newAccount();
      const other1 = await login(a);
      const other2 = await login(a);
      const next = newCredentials();
      expect(
        await t.call(
          AUTH_PATTERNS.changePassword,
          { currentAuthKey: a.body.authKey, ...next },
          authOf(a.userId, a.sid),
        ),
      ).toBeNull();

      expect(await t.redis.client.exists(`sess:${a.sid}`)).toBe(1);
      expect(await t.redis.client.exists(`sess:${other1.sid}`)).toBe(0);
      expect(await t.redis.client.exists(`sess:${other2.sid}`)).toBe(0);
      expect((await t.fail(AUTH_PATTERNS.refresh, { refreshToken: other1.token })).code).toBe(
        ErrorCode.REFRESH_INVALID,
      );

      const oldLogin = await t.fail(
        AUTH_PATTERNS.login,
        { identifier: a.body.email, authKey: a.body.authKey },
        { ip: '192.0.2.77' },
      );
      expect(oldLogin.code).toBe(ErrorCode.INVALID_CREDENTIALS);
      const newLogin = await t.call<WithRefresh<AuthResponse>>(
        AUTH_PATTERNS.login,
        { identifier: a.body.email, authKey: next.authKey },
        { ip: '192.0.2.77' },
      );
      expect(newLogin.body.wrappedVaultKey).toBe(next.wrappedVaultKey);

      const me = await t.call<MeResponse>(AUTH_PATTERNS.me, undefined, authOf(a.userId, a.sid));
      expect(me.vault).toEqual({
        salt: next.salt,
        kdfParams: next.kdfParams,
        wrappedVaultKey: next.wrappedVaultKey,
      });
      expect(await t.call<PreloginResponse>(AUTH_PATTERNS.prelogin, { identifier: a.body.username })).toEqual(
        {
          salt: next.salt,
          kdfParams: next.kdfParams,
        },
      );
      expect(await eventTypes(a.userId)).toContain('password_changed');
    });

    it('validates the new material with the contract schema', async () => {
      const a = await newAccount();
      const error = await t.fail(
        AUTH_PATTERNS.changePassword,
        {
          currentAuthKey: a.body.authKey,
          ...newCredentials(),
          kdfParams: { kdf: 'argon2id', memoryKiB: 1, iterations: 1, parallelism: 1 },
        },
        authOf(a.userId, a.sid),
      );
      expect(error).toMatchObject({ code: ErrorCode.VALIDATION_FAILED, message: 'Invalid KDF parameters' });
    });

    it('lets only one of two concurrent changes with the same current key win', async () => {
      const a = await newAccount();
      const results = await Promise.allSettled([
        t.call(
          AUTH_PATTERNS.changePassword,
          { currentAuthKey: a.body.authKey, ...newCredentials() },
          authOf(a.userId, a.sid),
        ),
        t.call(
          AUTH_PATTERNS.changePassword,
          { currentAuthKey: a.body.authKey, ...newCredentials() },
          authOf(a.userId, a.sid),
        ),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const events = await eventTypes(a.userId);
      expect(events.filter((e) => e === 'password_changed')).toHaveLength(1);
    });
  });
});
