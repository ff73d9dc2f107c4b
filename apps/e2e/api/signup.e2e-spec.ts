import {
  ACCESS_TOKEN,
  ErrorCode,
  REFRESH_COOKIE,
  SIGNUP_MESSAGES,
  type AuthResponse,
} from '@vault/contracts';
import {
  FAST_KDF,
  newIdentity,
  prepareAccount,
  signUp,
  uniqueId,
  type PreparedAccount,
  type SignupBody,
} from '../support/accounts';
import { ISO_DATE, UUID_V4, expectError, expectRefreshCookie } from '../support/expect';
import { ApiClient } from '../support/http';
import { decodeJwt } from '../support/jwt';

const FILL_ALL = 'Please fill in all fields';

describe('POST /api/auth/signup', () => {
  const api = new ApiClient('signup');
  /** Client-side material reused by the requests that must be refused (the server never gets that far). */
  let material: PreparedAccount;

  /** A valid body with a fresh identity, then `changes` applied (`undefined` removes a field). */
  function body(changes: Record<string, unknown> = {}): Record<string, unknown> {
    const identity = newIdentity('su');
    const valid: SignupBody = {
      ...material.body,
      username: identity.username,
      email: identity.email,
      phoneNumber: identity.phoneNumber,
    };
    const out: Record<string, unknown> = { ...valid, ...changes };
    for (const [key, value] of Object.entries(changes)) if (value === undefined) delete out[key];
    return out;
  }

  const post = (json: unknown) => api.post<AuthResponse>('/api/auth/signup', json, { token: null });

  beforeAll(async () => {
    material = await prepareAccount(newIdentity('su'), FAST_KDF);
  });

  describe('success', () => {
    it('creates the account: 201 with an access token, the public user and the wrapped vault key', async () => {
      const identity = newIdentity('su');
      const account = await prepareAccount({ ...identity, email: `Mixed.${identity.email.toUpperCase()}` });
      const before = Date.now();
      const res = await post(account.body);

      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        access: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
        user: {
          id: expect.stringMatching(UUID_V4),
          email: `mixed.${identity.email}`,
          username: identity.username,
          role: 'user',
          permissions: [],
          twoFactorEnabled: false,
          createdAt: expect.stringMatching(ISO_DATE),
        },
        wrappedVaultKey: account.keys.wrappedVaultKey,
      });
      const createdAt = Date.parse(res.body.user.createdAt);
      expect(createdAt).toBeGreaterThanOrEqual(before - 60_000);
      expect(createdAt).toBeLessThanOrEqual(Date.now() + 60_000);
    });

    it('sets the refresh token only as an HttpOnly, SameSite=Strict cookie scoped to /api/auth', async () => {
      const account = await prepareAccount();
      const res = await post(account.body);

      expect(res.status).toBe(201);
      const token = expectRefreshCookie(res);
      expect(res.cookie(REFRESH_COOKIE.name)?.attributes['path']).toBe('/api/auth');
      expect(res.text).not.toContain(token);
    });

    it('issues an asymmetric-signed access token for the new user and its new session, valid 15 minutes', async () => {
      const { signup, user } = await signUp();
      const { header, payload } = decodeJwt(signup.body.access);

      expect(ACCESS_TOKEN.algorithms as readonly string[]).toContain(header['alg']);
      expect(payload).toEqual(
        expect.objectContaining({
          sub: user.id,
          sid: expect.stringMatching(UUID_V4),
          role: 'user',
          aud: ACCESS_TOKEN.audience,
          iat: expect.any(Number),
          exp: expect.any(Number),
        }),
      );
      expect(Number(payload['exp']) - Number(payload['iat'])).toBe(ACCESS_TOKEN.ttlSeconds);
    });

    it('signs the new browser in: /me answers the user and the vault key material it sent', async () => {
      const account = await signUp();
      const me = await account.client.get('/api/auth/me');

      expect(me.status).toBe(200);
      expect(me.body).toEqual({
        user: account.user,
        vault: {
          salt: account.keys.salt,
          kdfParams: FAST_KDF,
          wrappedVaultKey: account.keys.wrappedVaultKey,
        },
      });
    });
  });

  describe('validation, in the order of the spec (section 5)', () => {
    const invalidAll = { username: 'ab', email: 'not-an-email', phoneNumber: 'call me' };

    it.each(['username', 'email', 'phoneNumber', 'authKey', 'salt', 'kdfParams', 'wrappedVaultKey'])(
      `answers 400 '${FILL_ALL}' when %s is missing, before any other rule`,
      async (field) => {
        expectError(await post(body({ ...invalidAll, [field]: undefined })), 400, FILL_ALL);
      },
    );

    it.each(['username', 'email', 'phoneNumber'])(
      `answers 400 '${FILL_ALL}' when %s is blank`,
      async (field) => {
        expectError(await post(body({ ...invalidAll, [field]: '   ' })), 400, FILL_ALL);
      },
    );

    it(`answers 400 '${SIGNUP_MESSAGES.usernameShort}' before checking e-mail and phone`, async () => {
      expectError(await post(body({ ...invalidAll, username: 'ab' })), 400, SIGNUP_MESSAGES.usernameShort);
      expectError(await post(body({ username: 'x' })), 400, SIGNUP_MESSAGES.usernameShort);
    });

    it.each(['not-an-email', 'a@b', 'two words@example.com', '@example.com', 'user@'])(
      `answers 400 '${SIGNUP_MESSAGES.email}' for %j, before checking the phone`,
      async (email) => {
        expectError(await post(body({ email, phoneNumber: 'call me' })), 400, SIGNUP_MESSAGES.email);
      },
    );

    it.each(['call me', '555-CALL-NOW', '12+34', '++15551234', '#5551234'])(
      `answers 400 '${SIGNUP_MESSAGES.phone}' for %j`,
      async (phoneNumber) => {
        expectError(await post(body({ phoneNumber })), 400, SIGNUP_MESSAGES.phone);
      },
    );

    it.each(['+1 (555) 010-0000', '555 0100', '(030) 1234-5678'])(
      'accepts the phone number %j',
      async (phoneNumber) => {
        const account = await prepareAccount();
        const res = await post({ ...account.body, phoneNumber });
        expect(res.status).toBe(201);
      },
    );

    const extraFields: Record<string, unknown> = { isAdmin: true, role: 'admin', password: 'Secret123' };
    it.each(Object.keys(extraFields))(
      "refuses the unknown field %s with 400 'Unknown field: <name>'",
      async (field) => {
        expectError(await post(body({ [field]: extraFields[field] })), 400, `Unknown field: ${field}`);
      },
    );

    it.each([
      [
        'Argon2id memory below 19456 KiB',
        { kdf: 'argon2id', memoryKiB: 1024, iterations: 2, parallelism: 1 },
      ],
      ['Argon2id with 1 iteration', { kdf: 'argon2id', memoryKiB: 19456, iterations: 1, parallelism: 1 }],
      ['PBKDF2 below 600000 iterations', { kdf: 'pbkdf2-sha256', iterations: 1000 }],
      ['an unknown KDF', { kdf: 'md5' }],
    ])("refuses %s with 400 'Invalid KDF parameters'", async (_label, kdfParams) => {
      expectError(await post(body({ kdfParams })), 400, 'Invalid KDF parameters');
    });

    it('stores nothing when it refuses a body: the same username and e-mail sign up afterwards', async () => {
      const account = await prepareAccount();
      const weak = { kdf: 'argon2id', memoryKiB: 1024, iterations: 2, parallelism: 1 };
      expectError(await post({ ...account.body, kdfParams: weak }), 400, 'Invalid KDF parameters');
      expectError(await post({ ...account.body, phoneNumber: 'x' }), 400, SIGNUP_MESSAGES.phone);
      expect((await post(account.body)).status).toBe(201);
    });
  });

  describe('uniqueness', () => {
    it("answers 409 'Username already taken' for a username in another letter case, without a session", async () => {
      const first = await prepareAccount(newIdentity('dup'));
      expect((await post(first.body)).status).toBe(201);

      const clone = newIdentity('dup');
      const res = await post(body({ username: first.identity.username.toUpperCase(), email: clone.email }));
      expectError(res, 409, 'Username already taken', { code: ErrorCode.USERNAME_TAKEN });
      expect(res.cookie(REFRESH_COOKIE.name)).toBeUndefined();
    });

    it("answers 409 'Email already registered' for an e-mail in another letter case, without a session", async () => {
      const first = await prepareAccount(newIdentity('dup'));
      expect((await post(first.body)).status).toBe(201);

      const res = await post(body({ username: uniqueId('dup'), email: first.identity.email.toUpperCase() }));
      expectError(res, 409, 'Email already registered', { code: ErrorCode.EMAIL_TAKEN });
      expect(res.cookie(REFRESH_COOKIE.name)).toBeUndefined();
    });
  });
});
