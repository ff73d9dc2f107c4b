import {
  AUTH_PATTERNS,
  ErrorCode,
  type AuthResponse,
  type BackupCodesInfoResponse,
  type BackupCodesResponse,
  type LoginResponse,
  type SignupBody,
  type TwoFactorEnableResponse,
  type WithRefresh,
} from '@vault/contracts';
import { generate } from 'otplib';
import { TwoFactorService } from '../../src/services/two-factor.service';
import { authOf, context, hex, signupBody, startAuthTestApp, testAppPerFile } from './support/auth-test-app';

let ipCounter = 0;
const freshIp = () => `203.0.113.${(ipCounter += 1) % 250}`;

/** The code of the step `offset` steps away from now. */
const codeAt = (secret: string, offset = 0) => generate({ secret, epoch: Date.now() / 1000 + offset * 30 });

/**
 * Waits out the last seconds of a step, so that a code made for "one step away" is still one
 * step away when the service checks it.
 */
async function midStep(): Promise<void> {
  const intoStep = (Date.now() / 1000) % 30;
  if (intoStep > 24) await new Promise((resolve) => setTimeout(resolve, (31 - intoStep) * 1000));
}

describe(TwoFactorService.name, () => {
  const t = testAppPerFile(() => startAuthTestApp('twofactor'));

  interface Account {
    body: SignupBody;
    userId: string;
    ctx: ReturnType<typeof authOf>;
  }

  async function signup(): Promise<Account> {
    const body = signupBody();
    const res = await t.call<WithRefresh<AuthResponse>>(AUTH_PATTERNS.signup, body, { ip: freshIp() });
    // The session id is the access token's `sid` claim.
    const access = res.body.access.split('.')[1]!;
    const claims = JSON.parse(Buffer.from(access, 'base64url').toString('utf8')) as { sid: string };
    return { body, userId: res.body.user.id, ctx: authOf(res.body.user.id, claims.sid) };
  }

  /** Forgets the replay marks, so a test can use the same steps again without waiting. */
  async function forgetReplayMarks(userId: string): Promise<void> {
    const keys = await t.redis.client.keys(`*totp-used:${userId}:*`);
    for (const key of keys) await t.redis.client.del(key.slice(t.redis.prefix.length));
  }

  /** Enables 2FA and answers the secret and the first backup codes. */
  async function enable(a: Account): Promise<{ secret: string; backupCodes: string[] }> {
    const { otpauthUrl } = await t.call<TwoFactorEnableResponse>(AUTH_PATTERNS.twoFactorEnable, {}, a.ctx);
    const secret = new URL(otpauthUrl).searchParams.get('secret')!;
    const { backupCodes } = await t.call<BackupCodesResponse>(
      AUTH_PATTERNS.twoFactorVerify,
      { code: await codeAt(secret) },
      a.ctx,
    );
    await forgetReplayMarks(a.userId);
    return { secret, backupCodes };
  }

  const eventTypes = async (userId: string): Promise<string[]> =>
    (
      await t.pg.query<{ event_type: string }>(
        `SELECT event_type FROM auth.security_events WHERE user_id = $1 ORDER BY created_at`,
        [userId],
      )
    ).rows.map((r) => r.event_type);

  const login = (a: Account, extra: Record<string, string> = {}) =>
    t.call<WithRefresh<LoginResponse>>(
      AUTH_PATTERNS.login,
      { identifier: a.body.username, authKey: a.body.authKey, ...extra },
      { ip: freshIp() },
    );
  const codeLogin = (a: Account, code: string) =>
    t.call<WithRefresh<AuthResponse>>(
      AUTH_PATTERNS.twoFactorLogin,
      { identifier: a.body.email, authKey: a.body.authKey, code },
      { ip: freshIp() },
    );
  const backupLogin = (a: Account, backupCode: string) =>
    t.call<WithRefresh<AuthResponse>>(
      AUTH_PATTERNS.backupCodeLogin,
      { identifier: a.body.username, authKey: a.body.authKey, backupCode },
      { ip: freshIp() },
    );

  describe('enable and verify', () => {
    it('stores a pending secret sealed (never in clear) and turns 2FA on with the first code', async () => {
      const a = await signup();
      const { otpauthUrl } = await t.call<TwoFactorEnableResponse>(AUTH_PATTERNS.twoFactorEnable, {}, a.ctx);
      const url = new URL(otpauthUrl);
      expect(url.protocol).toBe('otpauth:');
      expect(url.host).toBe('totp');
      expect(decodeURIComponent(url.pathname)).toBe(`/Vault:${a.body.email}`);
      expect(url.searchParams.get('issuer')).toBe('Vault');
      const secret = url.searchParams.get('secret')!;
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);

      const row = (await t.pg.query(`SELECT * FROM auth.totp WHERE user_id = $1`, [a.userId])).rows[0];
      expect(row.enabled_at).toBeNull();
      expect(row.secret_sealed).toMatch(/^[0-9a-f]+:[0-9a-f]{24}$/);
      expect(row.secret_sealed).not.toContain(secret);
      expect(row.secret_sealed).not.toContain(Buffer.from(secret).toString('hex'));
      // Not active yet: the sign-in is still one step.
      expect((await login(a)).body).toHaveProperty('access');

      const wrong = await t.fail(AUTH_PATTERNS.twoFactorVerify, { code: '000000' }, a.ctx);
      // One chance in a million that 000000 is the current code.
      expect(wrong.code).toBe(ErrorCode.VALIDATION_FAILED);
      expect(wrong.message).toBe('Invalid verification code');

      const { backupCodes } = await t.call<BackupCodesResponse>(
        AUTH_PATTERNS.twoFactorVerify,
        { code: await codeAt(secret) },
        a.ctx,
      );
      expect(backupCodes).toHaveLength(10);
      for (const code of backupCodes) expect(code).toMatch(/^[A-F0-9]{4}-[A-F0-9]{4}$/);
      expect(new Set(backupCodes).size).toBe(10);

      const user = (await t.pg.query(`SELECT two_factor_enabled FROM auth.users WHERE id = $1`, [a.userId]))
        .rows[0];
      expect(user.two_factor_enabled).toBe(true);
      const stored = (
        await t.pg.query<{ code_hash: string }>(
          `SELECT code_hash FROM auth.backup_codes WHERE user_id = $1`,
          [a.userId],
        )
      ).rows.map((r) => r.code_hash);
      expect(stored).toHaveLength(10);
      for (const code of backupCodes) {
        expect(stored.join(' ')).not.toContain(code.replace('-', ''));
        expect(stored.join(' ').toUpperCase()).not.toContain(code.replace('-', ''));
      }
      expect(await eventTypes(a.userId)).toEqual(
        expect.arrayContaining(['two_factor_failure', 'two_factor_enabled']),
      );
      const me = await t.call<{ user: { twoFactorEnabled: boolean } }>(AUTH_PATTERNS.me, undefined, a.ctx);
      expect(me.user.twoFactorEnabled).toBe(true);
    });

    it('refuses a second enable while 2FA is on, and verify without a pending secret', async () => {
      const a = await signup();
      expect((await t.fail(AUTH_PATTERNS.twoFactorVerify, { code: '123456' }, a.ctx)).message).toBe(
        'Invalid verification code',
      );
      await enable(a);
      expect((await t.fail(AUTH_PATTERNS.twoFactorEnable, {}, a.ctx)).code).toBe(ErrorCode.CONFLICT);
    });

    it('requires a live session', async () => {
      expect((await t.fail(AUTH_PATTERNS.twoFactorEnable, {}, {})).code).toBe(ErrorCode.UNAUTHENTICATED);
    });
  });

  describe('sign-in with the second factor', () => {
    it('answers requires2FA with no token, then signs in with a code, once per code', async () => {
      const a = await signup();
      const { secret } = await enable(a);

      const first = await login(a);
      expect(first).toEqual({ body: { requires2FA: true } });
      // An empty code field is no code.
      expect(await login(a, { totpCode: ' ' })).toEqual({ body: { requires2FA: true } });

      const code = await codeAt(secret);
      const ok = await codeLogin(a, code);
      expect(ok.body.access).toEqual(expect.any(String));
      expect(ok.body.user.twoFactorEnabled).toBe(true);
      expect(ok.refresh?.token).toEqual(expect.any(String));
      expect(ok.body).not.toHaveProperty('warningMessage');

      const replay = await t.fail(
        AUTH_PATTERNS.twoFactorLogin,
        { identifier: a.body.email, authKey: a.body.authKey, code },
        { ip: freshIp() },
      );
      expect(replay.code).toBe(ErrorCode.INVALID_VERIFICATION_CODE);
      expect(replay.message).toBe('Invalid verification code');

      // The login call's totpCode is the same check.
      const direct = await login(a, { totpCode: await codeAt(secret, 1) });
      expect(direct.body).toHaveProperty('access');
      const wrongDirect = await t.fail(
        AUTH_PATTERNS.login,
        { identifier: a.body.username, authKey: a.body.authKey, totpCode: await codeAt(secret, 3) },
        { ip: freshIp() },
      );
      expect(wrongDirect.code).toBe(ErrorCode.INVALID_VERIFICATION_CODE);
    });

    it('accepts ±1 step and refuses ±2', async () => {
      const a = await signup();
      const { secret } = await enable(a);
      await midStep();
      for (const offset of [-1, 1])
        expect((await codeLogin(a, await codeAt(secret, offset))).body).toHaveProperty('access');
      for (const offset of [-2, 2]) {
        expect(
          (
            await t.fail(
              AUTH_PATTERNS.twoFactorLogin,
              {
                identifier: a.body.email,
                authKey: a.body.authKey,
                code: await codeAt(secret, offset),
              },
              { ip: freshIp() },
            )
          ).code,
        ).toBe(ErrorCode.INVALID_VERIFICATION_CODE);
      }
    });

    it('still checks the key first: a wrong key with a right code is Invalid credentials', async () => {
      const a = await signup();
      const { secret } = await enable(a);
      const err = await t.fail(
        AUTH_PATTERNS.twoFactorLogin,
        { identifier: a.body.email, authKey: hex(32), code: await codeAt(secret) },
        { ip: freshIp() },
      );
      expect(err.code).toBe(ErrorCode.INVALID_CREDENTIALS);
    });

    it('counts wrong codes toward the lockout like wrong keys (423 on the fifth)', async () => {
      const a = await signup();
      await enable(a);
      for (let i = 0; i < 4; i += 1) {
        // Between key checks that succeed, the failures must not be forgotten.
        expect(await login(a)).toEqual({ body: { requires2FA: true } });
        expect(
          (
            await t.fail(
              AUTH_PATTERNS.twoFactorLogin,
              {
                identifier: a.body.email,
                authKey: a.body.authKey,
                code: '000000',
              },
              { ip: freshIp() },
            )
          ).code,
        ).toBe(ErrorCode.INVALID_VERIFICATION_CODE);
      }
      const fifth = await t.fail(
        AUTH_PATTERNS.backupCodeLogin,
        {
          identifier: a.body.email,
          authKey: a.body.authKey,
          backupCode: 'ZZZZ-ZZZZ',
        },
        { ip: freshIp() },
      );
      expect(fifth.code).toBe(ErrorCode.ACCOUNT_LOCKED);
      expect(fifth.extra.retryAfter).toBe(600);
      const events = await eventTypes(a.userId);
      expect(events.filter((e) => e === 'two_factor_failure')).toHaveLength(5);
      expect(events).toContain('account_locked');
    });

    it('takes each backup code once, in any case and with or without the hyphen, and warns at 2 left', async () => {
      const a = await signup();
      const { backupCodes } = await enable(a);
      const [first, second, ...rest] = backupCodes as [string, string, ...string[]];

      const ok = await backupLogin(a, first.toLowerCase().replace('-', ''));
      expect(ok.body.access).toEqual(expect.any(String));
      expect(ok.body).not.toHaveProperty('warningMessage');
      const again = await t.fail(
        AUTH_PATTERNS.backupCodeLogin,
        {
          identifier: a.body.username,
          authKey: a.body.authKey,
          backupCode: first,
        },
        { ip: freshIp() },
      );
      expect(again.code).toBe(ErrorCode.INVALID_BACKUP_CODE);
      expect(again.message).toBe('Invalid backup code');

      // Two concurrent uses of one code: exactly one signs in.
      const both = await Promise.allSettled([backupLogin(a, second), backupLogin(a, second)]);
      expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);

      // 8 left; use 5 more without a warning, the 6th leaves 2.
      for (const code of rest.slice(0, 5))
        expect((await backupLogin(a, code)).body.warningMessage).toBeUndefined();
      expect((await backupLogin(a, rest[5]!)).body.warningMessage).toBe(
        'You have 2 backup codes left. Generate new ones in Settings.',
      );
      expect((await backupLogin(a, rest[6]!)).body.warningMessage).toBe(
        'You have 1 backup code left. Generate new ones in Settings.',
      );
      const info = await t.call<BackupCodesInfoResponse>(AUTH_PATTERNS.backupCodesInfo, undefined, a.ctx);
      expect(info).toEqual({ unusedCodesCount: 1, totalCodes: 10, generated: expect.any(String) });
      expect(Number.isNaN(Date.parse(info.generated!))).toBe(false);
      expect((await eventTypes(a.userId)).filter((e) => e === 'backup_code_used')).toHaveLength(9);
    });
  });

  describe('disable and regenerate', () => {
    it('regenerates with a code: old codes stop working, the new ones work', async () => {
      const a = await signup();
      const { secret, backupCodes: old } = await enable(a);
      const { backupCodes } = await t.call<BackupCodesResponse>(
        AUTH_PATTERNS.backupCodesRegenerate,
        { code: await codeAt(secret) },
        a.ctx,
      );
      expect(backupCodes).toHaveLength(10);
      expect(backupCodes.some((c) => old.includes(c))).toBe(false);
      expect(
        (
          await t.fail(
            AUTH_PATTERNS.backupCodeLogin,
            {
              identifier: a.body.username,
              authKey: a.body.authKey,
              backupCode: old[0],
            },
            { ip: freshIp() },
          )
        ).code,
      ).toBe(ErrorCode.INVALID_BACKUP_CODE);
      expect((await backupLogin(a, backupCodes[0]!)).body).toHaveProperty('access');
      expect(await eventTypes(a.userId)).toContain('backup_codes_regenerated');
    });

    it('regenerates with the authKey; a wrong key or code is a 401', async () => {
      const a = await signup();
      await enable(a);
      expect((await t.fail(AUTH_PATTERNS.backupCodesRegenerate, { authKey: hex(32) }, a.ctx)).code).toBe(
        ErrorCode.INVALID_PASSWORD,
      );
      expect((await t.fail(AUTH_PATTERNS.backupCodesRegenerate, { code: '000000' }, a.ctx)).code).toBe(
        ErrorCode.INVALID_VERIFICATION_CODE,
      );
      expect((await t.fail(AUTH_PATTERNS.backupCodesRegenerate, {}, a.ctx)).code).toBe(
        ErrorCode.VALIDATION_FAILED,
      );
      const { backupCodes } = await t.call<BackupCodesResponse>(
        AUTH_PATTERNS.backupCodesRegenerate,
        { authKey: a.body.authKey },
        a.ctx,
      );
      expect(backupCodes).toHaveLength(10);
    });

    it('disables with a code or with the authKey, clearing the secret and the codes', async () => {
      for (const proof of ['code', 'authKey'] as const) {
        const a = await signup();
        const { secret } = await enable(a);
        expect((await t.fail(AUTH_PATTERNS.twoFactorDisable, { authKey: hex(32) }, a.ctx)).code).toBe(
          ErrorCode.INVALID_PASSWORD,
        );
        const body = proof === 'code' ? { code: await codeAt(secret) } : { authKey: a.body.authKey };
        expect(await t.call(AUTH_PATTERNS.twoFactorDisable, body, a.ctx)).toBeNull();

        const user = (await t.pg.query(`SELECT two_factor_enabled FROM auth.users WHERE id = $1`, [a.userId]))
          .rows[0];
        expect(user.two_factor_enabled).toBe(false);
        expect((await t.pg.query(`SELECT 1 FROM auth.totp WHERE user_id = $1`, [a.userId])).rowCount).toBe(0);
        expect(
          (await t.pg.query(`SELECT 1 FROM auth.backup_codes WHERE user_id = $1`, [a.userId])).rowCount,
        ).toBe(0);
        expect(await t.call(AUTH_PATTERNS.backupCodesInfo, undefined, a.ctx)).toEqual({
          unusedCodesCount: 0,
          totalCodes: 0,
          generated: null,
        });
        expect((await login(a)).body).toHaveProperty('access');
        expect(await eventTypes(a.userId)).toContain('two_factor_disabled');
      }
    });

    it('limits wrong proofs per user (429 with retryAfter after 10)', async () => {
      const a = await signup();
      await enable(a);
      for (let i = 0; i < 10; i += 1) await t.fail(AUTH_PATTERNS.twoFactorDisable, { code: '000000' }, a.ctx);
      const limited = await t.fail(AUTH_PATTERNS.twoFactorDisable, { authKey: a.body.authKey }, a.ctx);
      expect(limited.code).toBe(ErrorCode.RATE_LIMITED);
      expect(limited.extra.retryAfter).toBeGreaterThan(0);
    });
  });

  describe('verifySecondFactor (account recovery)', () => {
    it('is true only for an unused valid code or backup code', async () => {
      const a = await signup();
      const { secret, backupCodes } = await enable(a);
      const service = t.app.get(TwoFactorService);
      const ctx = context({ ip: freshIp() });
      await midStep();
      const code = await codeAt(secret);
      expect(await service.verifySecondFactor(a.userId, { code }, ctx)).toBe(true);
      expect(await service.verifySecondFactor(a.userId, { code }, ctx)).toBe(false);
      expect(await service.verifySecondFactor(a.userId, { code: await codeAt(secret, 2) }, ctx)).toBe(false);
      expect(await service.verifySecondFactor(a.userId, { backupCode: backupCodes[3]! }, ctx)).toBe(true);
      expect(await service.verifySecondFactor(a.userId, { backupCode: backupCodes[3]! }, ctx)).toBe(false);
      expect(await service.verifySecondFactor(a.userId, {}, ctx)).toBe(false);
    });
  });

  describe('what is stored', () => {
    it('keeps no secret in Redis (only replay marks by time step) and none in the logs', async () => {
      const a = await signup();
      const { secret, backupCodes } = await enable(a);
      const code = await codeAt(secret);
      await codeLogin(a, code);
      const keys = await t.redis.client.keys('*');
      const mine = keys.filter((k) => k.includes(a.userId));
      expect(mine.some((k) => /totp-used:[0-9a-f-]{36}:\d+$/.test(k))).toBe(true);
      for (const key of keys) {
        const raw = key.slice(t.redis.prefix.length);
        const type = await t.redis.client.type(raw);
        const value =
          type === 'string'
            ? await t.redis.client.get(raw)
            : type === 'hash'
              ? JSON.stringify(await t.redis.client.hgetall(raw))
              : '';
        expect(`${key} ${value}`).not.toContain(secret);
      }
      const logs = t.logs.join('');
      expect(logs).not.toContain(secret);
      for (const c of backupCodes) expect(logs).not.toContain(c);
    });
  });
});
