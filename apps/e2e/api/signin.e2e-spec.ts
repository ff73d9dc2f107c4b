import { ErrorCode, REFRESH_COOKIE, type AuthResponse, type ErrorBody } from '@vault/contracts';
import {
  DEFAULT_KDF_PARAMS,
  decryptNote,
  deriveAuthKey,
  encryptNote,
  newItemId,
  unlockVault,
} from '@vault/crypto';
import {
  login,
  newIdentity,
  prepareAccount,
  randomDigits,
  signIn,
  signUp,
  uniqueId,
  type TestAccount,
} from '../support/accounts';
import { STACK } from '../support/env';
import { expectError, expectRefreshCookie } from '../support/expect';
import { ApiClient, assertStatus } from '../support/http';
import { decodeJwt } from '../support/jwt';

const WRONG_PASSWORD = 'Wrong-Password-123';

describe('POST /api/auth/login', () => {
  it('signs in end to end with the default KDF: prelogin, derive, login, unlock the vault, open a note sealed at sign-up', async () => {
    // Sign-up on the "device": default Argon2id parameters, a note sealed under the fresh vault key.
    const account = await prepareAccount(undefined, DEFAULT_KDF_PARAMS);
    const noteId = newItemId();
    const plaintext = {
      title: 'First note',
      content: 'Sealed at sign-up time',
      tags: ['e2e', 'default-kdf'],
    };
    const sealedNote = await encryptNote(account.keys.vaultKey, noteId, plaintext);
    const signupClient = new ApiClient('default-kdf-signup');
    assertStatus(await signupClient.post('/api/auth/signup', account.body, { token: null }), 201, 'sign-up');

    // A new browser knows only the password.
    const browser = new ApiClient('default-kdf-signin');
    const res = await signIn(browser, account.identity.username, account.identity.password);

    expect(res.prelogin).toEqual({ salt: account.keys.salt, kdfParams: DEFAULT_KDF_PARAMS });
    expect(res.authKey).toBe(account.keys.authKey);
    expect(res.status).toBe(200);
    const unlocked = await unlockVault(account.identity.password, {
      salt: res.prelogin.salt,
      kdfParams: res.prelogin.kdfParams,
      wrappedVaultKey: res.body.wrappedVaultKey,
    });
    expect(unlocked.authKey).toBe(res.authKey);
    await expect(decryptNote(unlocked.vaultKey, sealedNote)).resolves.toEqual(plaintext);
    expect((await browser.get('/api/auth/me')).status).toBe(200);
  });

  describe('with valid credentials', () => {
    let account: TestAccount;

    beforeAll(async () => {
      account = await signUp();
    });

    it.each([
      ['username', (a: TestAccount) => a.identity.username],
      ['username in upper case', (a: TestAccount) => a.identity.username.toUpperCase()],
      ['e-mail', (a: TestAccount) => a.identity.email],
      ['e-mail in upper case', (a: TestAccount) => a.identity.email.toUpperCase()],
    ])(
      'signs in with the %s: access token, user, wrapped vault key and a refresh cookie',
      async (_label, pick) => {
        const browser = new ApiClient('signin');
        const res = await signIn(browser, pick(account), account.identity.password);

        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          access: expect.any(String),
          user: account.user,
          wrappedVaultKey: account.keys.wrappedVaultKey,
        });
        expectRefreshCookie(res);
        expect(decodeJwt(res.body.access).payload['sub']).toBe(account.user.id);
        expect((await browser.get('/api/auth/me')).status).toBe(200);
      },
    );

    it('signs in with the phone number, written in another format, when no other account shares it', async () => {
      const digits = randomDigits(12);
      const phoneAccount = await signUp({
        identity: { ...newIdentity('phone'), phoneNumber: `+9 (${digits.slice(0, 3)}) ${digits.slice(3)}` },
      });
      const res = await signIn(new ApiClient('phone'), `+9${digits}`, phoneAccount.identity.password);

      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(phoneAccount.user.id);
    });

    it('starts a new session on every sign-in', async () => {
      const a = await login(new ApiClient('a'), account.identity.username, account.keys.authKey);
      const b = await login(new ApiClient('b'), account.identity.username, account.keys.authKey);
      expect([a.status, b.status]).toEqual([200, 200]);
      const sidA = decodeJwt(a.body.access).payload['sid'];
      const sidB = decodeJwt(b.body.access).payload['sid'];
      expect(sidA).not.toBe(sidB);
      expect(a.cookie(REFRESH_COOKIE.name)?.value).not.toBe(b.cookie(REFRESH_COOKIE.name)?.value);
    });
  });

  describe('with wrong credentials', () => {
    it("answers 401 'Invalid credentials' to a wrong password, with no token and no cookie", async () => {
      const account = await signUp();
      const res = await signIn(new ApiClient('wrong'), account.identity.username, WRONG_PASSWORD);

      expectError(res, 401, 'Invalid credentials', { code: ErrorCode.INVALID_CREDENTIALS });
      expect((res.body as Partial<AuthResponse>).access).toBeUndefined();
      expect(res.cookie(REFRESH_COOKIE.name)).toBeUndefined();
    });

    it('answers an unknown identifier exactly like a wrong password', async () => {
      const account = await signUp();
      const client = new ApiClient('unknown');
      const wrong = await signIn(client, account.identity.email, WRONG_PASSWORD);
      const unknown = await signIn(client, `${uniqueId('nobody')}@example.com`, WRONG_PASSWORD);

      const strip = ({ requestId: _r, ...rest }: ErrorBody) => rest;
      expect(unknown.status).toBe(401);
      expect(strip(unknown.body as unknown as ErrorBody)).toEqual(strip(wrong.body as unknown as ErrorBody));
    });

    it("refuses a missing identifier with 400 'Please fill in all fields' and a malformed authKey with 400", async () => {
      const api = new ApiClient('login-validation');
      expectError(
        await api.post('/api/auth/login', { authKey: 'ab'.repeat(32) }, { token: null }),
        400,
        'Please fill in all fields',
      );
      const res = await api.post(
        '/api/auth/login',
        { identifier: 'someone', authKey: 'not-hex' },
        { token: null },
      );
      expect(res.status).toBe(400);
    });
  });

  describe('lockout after 5 consecutive failures (600 s)', () => {
    /** A wrong but well-formed authKey, as a client derives from a wrong password. */
    let wrongKey: string;

    beforeAll(async () => {
      const account = await prepareAccount();
      wrongKey = await deriveAuthKey(WRONG_PASSWORD, account.keys.salt, account.keys.kdfParams);
    });

    it('locks the account on the 5th consecutive failure, whichever identifier each attempt used: 423 ACCOUNT_LOCKED, retryAfter 600, Retry-After', async () => {
      const account = await signUp();
      const client = new ApiClient('lockout');
      const ids = [
        account.identity.username,
        account.identity.email,
        account.identity.username.toUpperCase(),
      ];

      for (let i = 1; i < STACK.lockoutThreshold; i += 1) {
        expectError(await login(client, ids[i % ids.length] ?? '', wrongKey), 401, 'Invalid credentials');
      }
      const fifth = await login(client, account.identity.email, wrongKey);

      expectError(fifth, 423, /locked/i, {
        code: ErrorCode.ACCOUNT_LOCKED,
        retryAfter: STACK.lockoutSeconds,
      });
      expect(fifth.headers.get('retry-after')).toBe(String(STACK.lockoutSeconds));
      expect(fifth.cookie(REFRESH_COOKIE.name)).toBeUndefined();
    });

    it('keeps refusing the right key with 423 while locked, without a session', async () => {
      const account = await signUp();
      const client = new ApiClient('locked');
      for (let i = 0; i < STACK.lockoutThreshold; i += 1)
        await login(client, account.identity.username, wrongKey);

      const res = await login(client, account.identity.username, account.keys.authKey);
      expectError(res, 423, /locked/i, { code: ErrorCode.ACCOUNT_LOCKED });
      const retryAfter = (res.body as unknown as ErrorBody).retryAfter ?? 0;
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(STACK.lockoutSeconds);
      expect(Number(res.headers.get('retry-after'))).toBe(retryAfter);
      expect(res.cookie(REFRESH_COOKIE.name)).toBeUndefined();
      expect(client.access).toBeUndefined();
    });

    it('counts only consecutive failures: a successful sign-in resets the count', async () => {
      const account = await signUp();
      const client = new ApiClient('reset-count');
      const fail = () => login(client, account.identity.username, wrongKey);

      for (let i = 1; i < STACK.lockoutThreshold; i += 1) expect((await fail()).status).toBe(401);
      expect((await login(client, account.identity.username, account.keys.authKey)).status).toBe(200);
      for (let i = 1; i < STACK.lockoutThreshold; i += 1) expect((await fail()).status).toBe(401);
      expect((await login(client, account.identity.username, account.keys.authKey)).status).toBe(200);
    });

    it('locks only the attacked account: another account signs in from the same address', async () => {
      const victim = await signUp();
      const bystander = await signUp();
      const client = new ApiClient('bystander');
      for (let i = 0; i < STACK.lockoutThreshold; i += 1)
        await login(client, victim.identity.username, wrongKey);
      expect((await login(client, victim.identity.username, victim.keys.authKey)).status).toBe(423);

      expect((await login(client, bystander.identity.username, bystander.keys.authKey)).status).toBe(200);
    });
  });
});
