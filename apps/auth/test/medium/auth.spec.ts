import {
  ACCESS_TOKEN,
  AUTH_PATTERNS,
  DEFAULT_KDF_PARAMS,
  ErrorCode,
  type AuthResponse,
  type HealthReply,
  type LoginResponse,
  type MeResponse,
  type PreloginResponse,
  type WithRefresh,
} from '@vault/contracts';
import { createHmac } from 'node:crypto';
import { importSPKI, jwtVerify } from 'jose';
import { AuthService } from '../../src/services/auth.service';
import { authOf, hex, signupBody, startAuthTestApp, testAppPerFile } from './support/auth-test-app';

describe(AuthService.name, () => {
  const t = testAppPerFile(() => startAuthTestApp('flow'));

  const signup = (body = signupBody(), ip = '198.51.100.10') =>
    t.call<WithRefresh<AuthResponse>>(AUTH_PATTERNS.signup, body, { ip, userAgent: 'Firefox/140' });

  const eventsOf = async (
    userId: string,
  ): Promise<{ event_type: string; details: Record<string, unknown> }[]> =>
    (
      await t.pg.query(
        `SELECT event_type, details, ip_address, user_agent FROM auth.security_events
         WHERE user_id = $1 ORDER BY created_at`,
        [userId],
      )
    ).rows;

  describe('health', () => {
    it('reports the database and Redis as ok', async () => {
      const health = await t.call<HealthReply>(AUTH_PATTERNS.health, undefined);
      expect(health).toMatchObject({
        service: 'auth',
        status: 'ok',
        checks: { database: 'ok', redis: 'ok' },
      });
    });
  });

  describe('signup', () => {
    it('creates the account, starts a session and answers access, user and wrapped key', async () => {
      const body = signupBody({ email: 'Mixed.Case@Example.com' });
      const res = await signup(body);

      expect(res.body.user).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        email: 'mixed.case@example.com',
        username: body.username,
        role: 'user',
        permissions: [],
        twoFactorEnabled: false,
        createdAt: expect.any(String),
      });
      expect(res.body.wrappedVaultKey).toBe(body.wrappedVaultKey);
      expect(res.refresh).toEqual({ token: expect.any(String), maxAgeSeconds: 2_592_000 });

      const key = await importSPKI(t.publicKeyPem, 'EdDSA');
      const { payload, protectedHeader } = await jwtVerify(res.body.access, key, {
        audience: ACCESS_TOKEN.audience,
        issuer: ACCESS_TOKEN.issuer,
        algorithms: ['EdDSA'],
      });
      expect(protectedHeader.alg).toBe('EdDSA');
      expect(payload.sub).toBe(res.body.user.id);
      expect(payload.role).toBe('user');
      expect(res.refresh?.token.startsWith(`${String(payload.sid)}.`)).toBe(true);
      expect(payload.exp! - payload.iat!).toBe(900);
      expect(await t.redis.client.exists(`sess:${String(payload.sid)}`)).toBe(1);
    });

    it('stores an Argon2id hash of authKey, never authKey, and the lowercase and normalised forms', async () => {
      const body = signupBody({ username: 'Carol_X', phoneNumber: '+44 (20) 7946-0958' });
      const res = await signup(body);
      const row = (await t.pg.query(`SELECT * FROM auth.users WHERE id = $1`, [res.body.user.id])).rows[0];
      expect(row.auth_hash).toMatch(/^\$argon2id\$v=19\$m=19456,(t=2,p=1|p=1,t=2)\$/);
      expect(JSON.stringify(row)).not.toContain(body.authKey);
      expect(row.username).toBe('Carol_X');
      expect(row.username_lower).toBe('carol_x');
      expect(row.phone_number).toBe('+44 (20) 7946-0958');
      expect(row.phone_normalized).toBe('+442079460958');
      expect(row.kdf_params).toEqual(DEFAULT_KDF_PARAMS);
      expect(row.recovery_auth_hash).toBeNull();
    });

    it('stores the optional recovery material with recoveryAuth hashed', async () => {
      const recovery = { recoveryAuth: hex(32), recoveryWrappedVaultKey: `${hex(48)}:${hex(12)}` };
      const res = await signup(signupBody({ recovery }));
      const row = (await t.pg.query(`SELECT * FROM auth.users WHERE id = $1`, [res.body.user.id])).rows[0];
      expect(row.recovery_auth_hash).toMatch(/^\$argon2id\$/);
      expect(row.recovery_auth_hash).not.toContain(recovery.recoveryAuth);
      expect(row.recovery_wrapped_vault_key).toBe(recovery.recoveryWrappedVaultKey);
    });

    it('answers 409 USERNAME_TAKEN for a username in any case', async () => {
      const first = signupBody();
      await signup(first);
      const error = await t.fail(
        AUTH_PATTERNS.signup,
        signupBody({ username: first.username.toUpperCase() }),
      );
      expect(error.code).toBe(ErrorCode.USERNAME_TAKEN);
      expect(error.message).toBe('Username already taken');
    });

    it('answers 409 EMAIL_TAKEN for an address in any case', async () => {
      const first = signupBody();
      await signup(first);
      const error = await t.fail(AUTH_PATTERNS.signup, signupBody({ email: first.email.toUpperCase() }));
      expect(error.code).toBe(ErrorCode.EMAIL_TAKEN);
      expect(error.message).toBe('Email already registered');
    });

    it('lets exactly one of two concurrent sign-ups with the same username win', async () => {
      const username = `race_${hex(3)}`;
      const results = await Promise.allSettled([
        signup(signupBody({ username })),
        signup(signupBody({ username })),
        signup(signupBody({ username })),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results.filter((x) => x.status === 'rejected')) {
        expect((r as PromiseRejectedResult).reason.code).toBe(ErrorCode.USERNAME_TAKEN);
      }
    });

    it('validates the body again and answers the first failing rule', async () => {
      const error = await t.fail(AUTH_PATTERNS.signup, signupBody({ username: 'ab' }));
      expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
      expect(error.message).toBe('Username must be at least 3 characters long');
      const extra = await t.fail(AUTH_PATTERNS.signup, { ...signupBody(), admin: true });
      expect(extra.code).toBe(ErrorCode.VALIDATION_FAILED);
    });

    it('records a signup event with the caller’s IP and user agent', async () => {
      const res = await signup(signupBody(), '203.0.113.44');
      const rows = (
        await t.pg.query(`SELECT * FROM auth.security_events WHERE user_id = $1`, [res.body.user.id])
      ).rows;
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        event_type: 'signup',
        ip_address: '203.0.113.44',
        user_agent: 'Firefox/140',
      });
    });
  });

  describe('prelogin', () => {
    it('answers the account’s salt and KDF parameters by username, e-mail or phone, in any case', async () => {
      const body = signupBody({ phoneNumber: '+1 (555) 010-7788' });
      await signup(body);
      for (const identifier of [
        body.username.toUpperCase(),
        body.email.toUpperCase(),
        '+15550107788',
        '+1 555 010 7788',
      ]) {
        expect(await t.call<PreloginResponse>(AUTH_PATTERNS.prelogin, { identifier })).toEqual({
          salt: body.salt,
          kdfParams: DEFAULT_KDF_PARAMS,
        });
      }
    });

    it('answers a stable fake of the same shape for an unknown identifier', async () => {
      const identifier = `Nobody_${hex(4)}@Example.com`;
      const a = await t.call<PreloginResponse>(AUTH_PATTERNS.prelogin, { identifier });
      const b = await t.call<PreloginResponse>(AUTH_PATTERNS.prelogin, {
        identifier: identifier.toLowerCase(),
      });
      const expected = createHmac('sha256', t.config.serverSecret)
        .update(identifier.toLowerCase())
        .digest()
        .subarray(0, 16)
        .toString('hex');
      expect(a).toEqual({ salt: expected, kdfParams: DEFAULT_KDF_PARAMS });
      expect(b).toEqual(a);
      expect(Object.keys(a).sort()).toEqual(['kdfParams', 'salt']);
    });

    it('gives different unknown identifiers different fake salts', async () => {
      const a = await t.call<PreloginResponse>(AUTH_PATTERNS.prelogin, { identifier: 'ghost-one' });
      const b = await t.call<PreloginResponse>(AUTH_PATTERNS.prelogin, { identifier: 'ghost-two' });
      expect(a.salt).not.toBe(b.salt);
    });

    it('refuses an empty identifier with the spec’s message', async () => {
      const error = await t.fail(AUTH_PATTERNS.prelogin, { identifier: '  ' });
      expect(error).toMatchObject({
        code: ErrorCode.VALIDATION_FAILED,
        message: 'Please fill in all fields',
      });
    });
  });

  describe('login', () => {
    it('signs in by username, e-mail or phone with the right key and starts a new session', async () => {
      const body = signupBody();
      const created = await signup(body);
      for (const identifier of [body.username, body.email.toUpperCase(), body.phoneNumber]) {
        const res = await t.call<WithRefresh<LoginResponse>>(
          AUTH_PATTERNS.login,
          { identifier, authKey: body.authKey },
          { ip: '198.51.100.20' },
        );
        expect(res.body).toMatchObject({ user: created.body.user, wrappedVaultKey: body.wrappedVaultKey });
        expect(res.refresh?.token).not.toBe(created.refresh?.token);
      }
      const row = (
        await t.pg.query(`SELECT last_login_at FROM auth.users WHERE id = $1`, [created.body.user.id])
      ).rows[0];
      expect(row.last_login_at).toBeInstanceOf(Date);
      const types = (await eventsOf(created.body.user.id)).map((e) => e.event_type);
      expect(types).toEqual(['signup', 'signin_success', 'signin_success', 'signin_success']);
    });

    it('answers 401 Invalid credentials for a wrong key and records bad_key', async () => {
      const body = signupBody();
      const created = await signup(body);
      const error = await t.fail(
        AUTH_PATTERNS.login,
        { identifier: body.username, authKey: hex(32) },
        { ip: '198.51.100.21' },
      );
      expect(error).toMatchObject({ code: ErrorCode.INVALID_CREDENTIALS, message: 'Invalid credentials' });
      const events = await eventsOf(created.body.user.id);
      expect(events.at(-1)).toMatchObject({ event_type: 'signin_failure', details: { reason: 'bad_key' } });
      const row = (
        await t.pg.query(`SELECT failed_login_attempts FROM auth.users WHERE id = $1`, [created.body.user.id])
      ).rows[0];
      expect(row.failed_login_attempts).toBe(1);
    });

    it('answers the same 401 for an unknown identifier and records unknown_user without a user', async () => {
      const identifier = `ghost_${hex(4)}`;
      const error = await t.fail(
        AUTH_PATTERNS.login,
        { identifier, authKey: hex(32) },
        { ip: '198.51.100.22' },
      );
      expect(error).toMatchObject({ code: ErrorCode.INVALID_CREDENTIALS, message: 'Invalid credentials' });
      const rows = (
        await t.pg.query(
          `SELECT * FROM auth.security_events WHERE user_id IS NULL AND ip_address = '198.51.100.22'`,
        )
      ).rows;
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ event_type: 'signin_failure', details: { reason: 'unknown_user' } });
      expect(JSON.stringify(rows[0])).not.toContain(identifier);
    });

    it('takes about as long for an unknown identifier as for a wrong key', async () => {
      const body = signupBody();
      await signup(body);
      const time = async (identifier: string) => {
        const start = process.hrtime.bigint();
        await t.fail(
          AUTH_PATTERNS.login,
          { identifier, authKey: hex(32) },
          { ip: `198.51.100.${23 + (identifier.length % 2)}` },
        );
        return Number(process.hrtime.bigint() - start) / 1e6;
      };
      await time(body.username); // warm-up (the dummy hash is made on first use)
      await time(`ghost_${hex(4)}`);
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        known.push(await time(body.username));
        unknown.push(await time(`ghost_${hex(4)}`));
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
      // Both paths run one Argon2id verify; without the dummy the unknown path would be ~10x faster.
      expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
    });

    it('answers requires2FA with no session when two-factor is on', async () => {
      const body = signupBody();
      const created = await signup(body);
      await t.pg.query(`UPDATE auth.users SET two_factor_enabled = true WHERE id = $1`, [
        created.body.user.id,
      ]);
      const before = await t.redis.client.smembers(`user-sess:${created.body.user.id}`);
      const res = await t.call<WithRefresh<LoginResponse>>(
        AUTH_PATTERNS.login,
        { identifier: body.email, authKey: body.authKey },
        { ip: '198.51.100.25' },
      );
      expect(res).toEqual({ body: { requires2FA: true } });
      expect(await t.redis.client.smembers(`user-sess:${created.body.user.id}`)).toEqual(before);
    });
  });

  describe('me', () => {
    it('answers the user and the vault key material of the caller', async () => {
      const body = signupBody();
      const created = await signup(body);
      const sid = created.refresh!.token.split('.')[0]!;
      const me = await t.call<MeResponse>(AUTH_PATTERNS.me, undefined, authOf(created.body.user.id, sid));
      expect(me).toEqual({
        user: created.body.user,
        vault: { salt: body.salt, kdfParams: DEFAULT_KDF_PARAMS, wrappedVaultKey: body.wrappedVaultKey },
      });
    });

    it('answers 401 without a caller and once the session has ended', async () => {
      const created = await signup();
      const sid = created.refresh!.token.split('.')[0]!;
      expect((await t.fail(AUTH_PATTERNS.me, undefined)).code).toBe(ErrorCode.UNAUTHENTICATED);
      await t.call(AUTH_PATTERNS.logout, {}, authOf(created.body.user.id, sid));
      expect((await t.fail(AUTH_PATTERNS.me, undefined, authOf(created.body.user.id, sid))).code).toBe(
        ErrorCode.SESSION_REVOKED,
      );
    });
  });

  describe('logs', () => {
    it('never contain what the user typed into sign-up or sign-in, nor keys or tokens', async () => {
      const marker = `mk${hex(4)}`;
      const body = signupBody({
        username: `${marker}_name`,
        email: `${marker}@mail.example`,
        phoneNumber: '+1 555 424 2424',
      });
      const created = await signup(body);
      await t.call(AUTH_PATTERNS.prelogin, { identifier: body.email });
      await t.fail(
        AUTH_PATTERNS.login,
        { identifier: body.username, authKey: hex(32) },
        { ip: '198.51.100.26' },
      );
      await t.call(
        AUTH_PATTERNS.login,
        { identifier: body.phoneNumber, authKey: body.authKey },
        { ip: '198.51.100.26' },
      );
      await t.call(AUTH_PATTERNS.refresh, { refreshToken: created.refresh!.token });
      const text = t.logs.join('');
      expect(text).toContain(created.body.user.id); // the service does log, by user id
      for (const secret of [
        marker,
        '4242424',
        '424 2424',
        body.authKey,
        body.salt,
        created.refresh!.token,
        created.body.access,
      ]) {
        expect(text).not.toContain(secret);
      }
    });
  });
});
