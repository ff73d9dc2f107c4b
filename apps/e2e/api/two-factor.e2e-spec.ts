/**
 * Two-factor authentication through the gateway (docs/api.md "Two-step verification" and login's
 * totpCode): setup, the second sign-in step with authenticator codes (computed here with otplib at explicit
 * epochs) and backup codes, regeneration, disabling, and what the server keeps of the TOTP secret.
 */
import {
  REFRESH_COOKIE,
  type AuthResponse,
  type BackupCodesInfoResponse,
  type BackupCodesResponse,
  type Requires2faResponse,
  type TwoFactorEnableResponse,
} from '@vault/contracts';
import { randomBytes } from 'node:crypto';
import { signUp, type TestAccount } from '../support/accounts';
import { enableTwoFactor, totpAt as codeAt, type TwoFactorAccount } from '../support/admin';
import { e2eEnv, sleep } from '../support/env';
import { expectError, expectRefreshCookie, ISO_DATE, meStatus } from '../support/expect';
import { ApiClient, type ApiResponse } from '../support/http';
import { findSecrets, readLogs, settleLogs } from '../support/logs';
import { dumpDatabase, dumpRedis } from '../support/stores';

const env = e2eEnv();

/** Waits out the end of a step, so a code made "one step away" is still one step away when checked. */
async function midStep(): Promise<void> {
  const intoStep = (Date.now() / 1000) % 30;
  if (intoStep > 24) await sleep((31 - intoStep) * 1000);
}

/** Signs up and turns 2FA on (the setup code's step is then forgotten, so sign-ins may use any step). */
async function signUpWith2fa(): Promise<TwoFactorAccount> {
  const account = await signUp();
  // Not near a step's end, so the setup code is made and checked in the same step.
  await midStep();
  return enableTwoFactor(account);
}

const credentials = (a: TestAccount) => ({ identifier: a.identity.username, authKey: a.keys.authKey });

const codeLogin = (client: ApiClient, a: TestAccount, code: string) =>
  client.post<AuthResponse>('/api/auth/2fa/login', { ...credentials(a), code }, { token: null });
const backupLogin = (client: ApiClient, a: TestAccount, backupCode: string) =>
  client.post<AuthResponse>('/api/auth/2fa/backup-login', { ...credentials(a), backupCode }, { token: null });

/** A sign-in that succeeded: tokens, the refresh cookie, and a working access token. */
async function expectSignedIn(
  res: ApiResponse<AuthResponse>,
  client: ApiClient,
  a: TestAccount,
): Promise<void> {
  expect(res.status).toBe(200);
  expect(res.body).toEqual(
    expect.objectContaining({
      access: expect.any(String),
      wrappedVaultKey: a.keys.wrappedVaultKey,
      user: expect.objectContaining({ id: a.user.id, twoFactorEnabled: true }),
    }),
  );
  expectRefreshCookie(res);
  expect(await meStatus(client, res.body.access)).toBe(200);
}

describe('two-factor authentication (API)', () => {
  describe('setup', () => {
    it('enable answers an otpauth URL (issuer Vault, label the e-mail); the secret is not active until verified', async () => {
      const a = await signUp();
      const res = await a.client.post<TwoFactorEnableResponse>('/api/auth/2fa/enable', {});
      expect(res.status).toBe(200);
      const url = new URL(res.body.otpauthUrl);
      expect(url.protocol).toBe('otpauth:');
      expect(url.host).toBe('totp');
      expect(decodeURIComponent(url.pathname)).toBe(`/Vault:${a.identity.email}`);
      expect(url.searchParams.get('issuer')).toBe('Vault');
      expect(url.searchParams.get('secret')).toMatch(/^[A-Z2-7]{16,}$/);

      // Still one step: no code needed yet.
      const plain = await new ApiClient('pending').post<AuthResponse>('/api/auth/login', credentials(a), {
        token: null,
      });
      expect(plain.status).toBe(200);
      expect(plain.body.user.twoFactorEnabled).toBe(false);

      expectError(
        await a.client.post('/api/auth/2fa/verify', { code: '000000' }),
        400,
        'Invalid verification code',
      );
      const secret = url.searchParams.get('secret') ?? '';
      await midStep();
      const verified = await a.client.post<BackupCodesResponse>('/api/auth/2fa/verify', {
        code: await codeAt(secret),
      });
      expect(verified.status).toBe(200);
      expect(verified.body.backupCodes).toHaveLength(10);
      for (const code of verified.body.backupCodes) expect(code).toMatch(/^[A-F0-9]{4}-[A-F0-9]{4}$/);
      const me = await a.client.get<{ user: { twoFactorEnabled: boolean } }>('/api/auth/me');
      expect(me.body.user.twoFactorEnabled).toBe(true);

      const info = await a.client.get<BackupCodesInfoResponse>('/api/auth/2fa/backup-codes');
      expect(info.status).toBe(200);
      expect(info.body).toEqual({
        unusedCodesCount: 10,
        totalCodes: 10,
        generated: expect.stringMatching(ISO_DATE),
      });
    });

    it('accepts enable with no body at all, refuses unknown fields, and needs a bearer token', async () => {
      const a = await signUp();
      expect((await a.client.post('/api/auth/2fa/enable')).status).toBe(200);
      expectError(
        await a.client.post('/api/auth/2fa/enable', { email: a.identity.email }),
        400,
        /Unknown field/,
      );
      expect((await a.client.post('/api/auth/2fa/enable', {}, { token: null })).status).toBe(401);
      expect((await a.client.get('/api/auth/2fa/backup-codes', { token: null })).status).toBe(401);
    });
  });

  describe('sign-in', () => {
    let a: TwoFactorAccount;

    beforeAll(async () => {
      a = await signUpWith2fa();
    });

    it('answers requires2FA with no token and no cookie, then 2fa/login signs in like login', async () => {
      const browser = new ApiClient('second-step');
      const first = await browser.post<Requires2faResponse>('/api/auth/login', credentials(a), {
        token: null,
      });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ requires2FA: true });
      expect(first.cookie(REFRESH_COOKIE.name)).toBeUndefined();
      expect(browser.refreshToken).toBeUndefined();

      await midStep();
      const res = await codeLogin(browser, a, await codeAt(a.secret, 1));
      await expectSignedIn(res, browser, a);
      // The refresh cookie is a real one.
      expect((await browser.post('/api/auth/refresh', undefined, { token: null })).status).toBe(200);
    });

    it('refuses a replayed code, accepts ±1 step and refuses ±2', async () => {
      const b = await signUpWith2fa();
      await midStep();
      const code = await codeAt(b.secret, -1);
      await expectSignedIn(await codeLogin(new ApiClient('prev'), b, code), new ApiClient('me'), b);
      expectError(await codeLogin(new ApiClient('replay'), b, code), 401, 'Invalid verification code');
      await expectSignedIn(
        await codeLogin(new ApiClient('next'), b, await codeAt(b.secret, 1)),
        new ApiClient('me'),
        b,
      );
      for (const offset of [-2, 2]) {
        expectError(
          await codeLogin(new ApiClient('far'), b, await codeAt(b.secret, offset)),
          401,
          'Invalid verification code',
        );
      }
    });

    it('signs in directly with login + totpCode; a wrong totpCode is 401 Invalid verification code', async () => {
      const b = await signUpWith2fa();
      await midStep();
      const browser = new ApiClient('direct');
      const res = await browser.post<AuthResponse>(
        '/api/auth/login',
        { ...credentials(b), totpCode: await codeAt(b.secret, 1) },
        { token: null },
      );
      await expectSignedIn(res, browser, b);
      const wrong = await browser.post(
        '/api/auth/login',
        { ...credentials(b), totpCode: await codeAt(b.secret, 5) },
        {
          token: null,
        },
      );
      expectError(wrong, 401, 'Invalid verification code');
      expect(wrong.cookie(REFRESH_COOKIE.name)).toBeUndefined();
    });

    it('a wrong authKey with a right code is Invalid credentials, and no token is given', async () => {
      const res = await new ApiClient('bad-key').post(
        '/api/auth/2fa/login',
        {
          identifier: a.identity.email,
          authKey: randomBytes(32).toString('hex'),
          code: await codeAt(a.secret),
        },
        { token: null },
      );
      expectError(res, 401, 'Invalid credentials');
      expect(res.cookie(REFRESH_COOKIE.name)).toBeUndefined();
    });

    it('locks the account after 5 wrong codes even though the key was right (423)', async () => {
      const b = await signUpWith2fa();
      for (let i = 0; i < 4; i += 1) {
        expectError(await codeLogin(new ApiClient('guess'), b, '000000'), 401, 'Invalid verification code');
      }
      const fifth = await backupLogin(new ApiClient('guess'), b, 'FFFF-FFFF');
      expect(fifth.status).toBe(423);
      expect((fifth.body as { retryAfter?: number }).retryAfter).toBe(600);
    });
  });

  describe('backup codes', () => {
    it('each works once, with or without hyphen in any case; warns at 2 or fewer left', async () => {
      const a = await signUpWith2fa();
      const [first, ...rest] = a.backupCodes as [string, ...string[]];
      const browser = new ApiClient('backup');
      const ok = await backupLogin(browser, a, first.toLowerCase().replace('-', ''));
      await expectSignedIn(ok, browser, a);
      expect(ok.body.warningMessage).toBeUndefined();
      expectError(await backupLogin(new ApiClient('again'), a, first), 401, 'Invalid backup code');

      for (const code of rest.slice(0, 6)) {
        expect((await backupLogin(new ApiClient('use'), a, code)).body.warningMessage).toBeUndefined();
      }
      const two = await backupLogin(new ApiClient('warn'), a, rest[6]!);
      expect(two.status).toBe(200);
      expect(two.body.warningMessage).toBe('You have 2 backup codes left. Generate new ones in Settings.');
      const info = await a.client.get<BackupCodesInfoResponse>('/api/auth/2fa/backup-codes');
      expect(info.body).toMatchObject({ unusedCodesCount: 2, totalCodes: 10 });
    });

    it('regenerate (with a code or the authKey) invalidates every old code', async () => {
      const a = await signUpWith2fa();
      await midStep();
      const withCode = await a.client.post<BackupCodesResponse>('/api/auth/2fa/backup-codes/regenerate', {
        code: await codeAt(a.secret, 1),
      });
      expect(withCode.status).toBe(200);
      expect(withCode.body.backupCodes).toHaveLength(10);
      expectError(await backupLogin(new ApiClient('old'), a, a.backupCodes[0]!), 401, 'Invalid backup code');

      expect(
        (
          await a.client.post('/api/auth/2fa/backup-codes/regenerate', {
            authKey: randomBytes(32).toString('hex'),
          })
        ).status,
      ).toBe(401);
      const withKey = await a.client.post<BackupCodesResponse>('/api/auth/2fa/backup-codes/regenerate', {
        authKey: a.keys.authKey,
      });
      expect(withKey.status).toBe(200);
      expectError(
        await backupLogin(new ApiClient('old2'), a, withCode.body.backupCodes[0]!),
        401,
        'Invalid backup code',
      );
      const browser = new ApiClient('new');
      await expectSignedIn(await backupLogin(browser, a, withKey.body.backupCodes[0]!), browser, a);
    });
  });

  describe('disable', () => {
    it('with a code: 204, then sign-in is one step again and the codes are gone', async () => {
      const a = await signUpWith2fa();
      await midStep();
      const res = await a.client.post('/api/auth/2fa/disable', { code: await codeAt(a.secret, 1) });
      expect(res.status).toBe(204);
      const plain = await new ApiClient('after').post<AuthResponse>('/api/auth/login', credentials(a), {
        token: null,
      });
      expect(plain.status).toBe(200);
      expect(plain.body.user.twoFactorEnabled).toBe(false);
      const info = await a.client.get<BackupCodesInfoResponse>('/api/auth/2fa/backup-codes');
      expect(info.body).toEqual({ unusedCodesCount: 0, totalCodes: 0, generated: null });
    });

    it('with the authKey; a wrong authKey or code is 401 and changes nothing', async () => {
      const a = await signUpWith2fa();
      expect(
        (await a.client.post('/api/auth/2fa/disable', { authKey: randomBytes(32).toString('hex') })).status,
      ).toBe(401);
      expectError(
        await a.client.post('/api/auth/2fa/disable', { code: '000000' }),
        401,
        'Invalid verification code',
      );
      expect(
        (
          await new ApiClient('still').post<Requires2faResponse>('/api/auth/login', credentials(a), {
            token: null,
          })
        ).body,
      ).toEqual({ requires2FA: true });
      expect((await a.client.post('/api/auth/2fa/disable', { authKey: a.keys.authKey })).status).toBe(204);
      const me = await a.client.get<{ user: { twoFactorEnabled: boolean } }>('/api/auth/me');
      expect(me.body.user.twoFactorEnabled).toBe(false);
    });
  });

  describe('at rest and in logs', () => {
    it('the TOTP secret and the backup codes appear nowhere in the database, Redis or the logs', async () => {
      const a = await signUpWith2fa();
      await midStep();
      await codeLogin(new ApiClient('rest'), a, await codeAt(a.secret, 1));
      await backupLogin(new ApiClient('rest'), a, a.backupCodes[1]!);

      const secrets = [
        { label: 'TOTP secret (base32)', value: a.secret },
        { label: 'TOTP secret (hex)', value: Buffer.from(a.secret).toString('hex') },
        ...a.backupCodes.map((code, i) => ({ label: `backup code ${i}`, value: code.replace('-', '') })),
        ...a.backupCodes.map((code, i) => ({ label: `backup code ${i} (shown)`, value: code })),
      ];
      expect(env.databaseUrl).toBeDefined();
      const tables = await dumpDatabase(env.databaseUrl!);
      expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['auth.totp', 'auth.backup_codes']));
      expect(tables.find((t) => t.name === 'auth.totp')?.content).toContain(a.user.id);
      // The secret is searched everywhere; the 8-hex-digit codes only in the auth schema, where a chance
      // match inside other tables' ciphertext cannot make the test flaky.
      expect(findSecrets(tables, secrets.slice(0, 2))).toEqual([]);
      expect(
        findSecrets(
          tables.filter((t) => t.name.startsWith('auth.')),
          secrets,
        ),
      ).toEqual([]);

      expect(env.redisUrl && env.redisPrefix).toBeTruthy();
      const keys = await dumpRedis(env.redisUrl!, env.redisPrefix!);
      expect(keys.some((k) => k.name.includes(`totp-used:${a.user.id}:`))).toBe(true);
      expect(findSecrets(keys, secrets.slice(0, 2))).toEqual([]);

      if (env.logDir) {
        await settleLogs(env.logDir);
        expect(findSecrets(readLogs(env.logDir), secrets)).toEqual([]);
      }
    });
  });
});
