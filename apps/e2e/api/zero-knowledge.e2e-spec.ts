/**
 * Zero knowledge, checked from the outside: a user types unique marker strings into every field (username,
 * e-mail, phone, password), goes through sign-up, failed and successful sign-ins, refresh, a password
 * change and logout; then every log file of every service is searched for the markers and for the secrets
 * that crossed the wire (authKeys, refresh and access tokens). The database and Redis are searched for what
 * the server must never hold at rest (passwords, authKeys, raw tokens). A single hit is a failure.
 */
import { randomBytes } from 'node:crypto';
import type { AuthResponse, SessionListResponse } from '@vault/contracts';
import { changePassword, deriveAuthKey } from '@vault/crypto';
import { login, prepareAccount, randomDigits, signIn } from '../support/accounts';
import { e2eEnv } from '../support/env';
import { ApiClient, assertStatus } from '../support/http';
import { decodeJwt } from '../support/jwt';
import { findSecrets, logsAfterBarrier, type Secret } from '../support/logs';
import { dumpDatabase, dumpRedis } from '../support/stores';

const env = e2eEnv();
const TAG = randomBytes(8).toString('hex');
const PHONE_DIGITS = `9${randomDigits(14)}`;

const MARKERS = {
  username: `ZkUser${TAG}`,
  email: `zkmail${TAG}`,
  password: `ZkPass${TAG}Aa1`,
  wrongPassword: `ZkWrong${TAG}Cc3`,
  newPassword: `ZkNewPass${TAG}Bb2`,
};

describe('zero knowledge: what the server keeps of the secrets a user types', () => {
  /** Everything the server must never write to a log. */
  const wireSecrets: Secret[] = [];
  /** What the server must never hold at rest. */
  const restSecrets: Secret[] = [];
  const tokens: Secret[] = [];
  let userId = '';
  const sessionIds = new Set<string>();

  function keepTokens(res: { body: unknown }, client: ApiClient, step: string): void {
    const access = (res.body as { access?: unknown } | undefined)?.access;
    if (typeof access === 'string') {
      tokens.push({ label: `access token (${step})`, value: access });
      sessionIds.add(String(decodeJwt(access).payload['sid']));
    }
    const refresh = client.refreshToken;
    if (refresh && !tokens.some((t) => t.value === refresh))
      tokens.push({ label: `refresh token (${step})`, value: refresh });
  }

  beforeAll(async () => {
    const identity = {
      username: MARKERS.username,
      email: `${MARKERS.email}@example.com`,
      phoneNumber: `+${PHONE_DIGITS}`,
      password: MARKERS.password,
    };
    const account = await prepareAccount(identity);

    // Sign-up, then the same username again (refused).
    const device = new ApiClient('zk-device', { userAgent: 'vault-e2e/zero-knowledge' });
    const signup = assertStatus(
      await device.post<AuthResponse>('/api/auth/signup', account.body, { token: null }),
      201,
      'sign-up',
    );
    device.access = signup.body.access;
    userId = signup.body.user.id;
    keepTokens(signup, device, 'sign-up');
    const again = await prepareAccount({ ...identity, email: `other.${identity.email}` });
    assertStatus(
      await device.post('/api/auth/signup', again.body, { token: null }),
      409,
      'duplicate sign-up',
    );

    // A failed sign-in with a wrong password, then successful ones with the username and the e-mail.
    const laptop = new ApiClient('zk-laptop');
    const wrong = await signIn(laptop, identity.email, MARKERS.wrongPassword);
    assertStatus(wrong, 401, 'sign-in with a wrong password');
    keepTokens(
      assertStatus(await signIn(laptop, identity.username, identity.password), 200, 'sign-in'),
      laptop,
      'sign-in',
    );
    const phone = new ApiClient('zk-phone');
    keepTokens(
      assertStatus(await signIn(phone, identity.email, identity.password), 200, 'sign-in'),
      phone,
      'sign-in 2',
    );

    // Refresh twice (rotation), list sessions, read /me.
    for (const step of ['refresh 1', 'refresh 2']) {
      const r = assertStatus(await laptop.post('/api/auth/refresh', undefined, { token: null }), 200, step);
      laptop.access = (r.body as { access: string }).access;
      keepTokens(r, laptop, step);
    }
    assertStatus(await laptop.get<SessionListResponse>('/api/auth/sessions'), 200, 'sessions');
    assertStatus(await laptop.get('/api/auth/me'), 200, 'me');

    // Change the password on the device, then sign in with the new one and log out.
    const changed = await changePassword({
      oldPassword: identity.password,
      newPassword: MARKERS.newPassword,
      salt: account.keys.salt,
      kdfParams: account.keys.kdfParams,
      wrappedVaultKey: account.keys.wrappedVaultKey,
    });
    const { currentAuthKey, authKey, salt, kdfParams, wrappedVaultKey } = changed;
    assertStatus(
      await device.post('/api/auth/change-password', {
        currentAuthKey,
        authKey,
        salt,
        kdfParams,
        wrappedVaultKey,
      }),
      204,
      'change password',
    );
    const tablet = new ApiClient('zk-tablet');
    const afterChange = assertStatus(
      await signIn(tablet, identity.username, MARKERS.newPassword),
      200,
      'sign-in',
    );
    keepTokens(afterChange, tablet, 'sign-in after change');
    const oldKey = await login(new ApiClient('zk-old-key'), identity.username, account.keys.authKey);
    assertStatus(oldKey, 401, 'sign-in with the old authKey');
    assertStatus(await tablet.post('/api/auth/logout'), 204, 'logout');

    const wrongKey = await deriveAuthKey(MARKERS.wrongPassword, account.keys.salt, account.keys.kdfParams);
    const passwordSecrets: Secret[] = [
      { label: 'password', value: MARKERS.password },
      { label: 'password marker core', value: `zkpass${TAG}` },
      { label: 'wrong password', value: `zkwrong${TAG}` },
      { label: 'new password', value: `zknewpass${TAG}` },
      { label: 'authKey', value: account.keys.authKey },
      { label: 'authKey of the wrong password', value: wrongKey },
      { label: 'new authKey', value: changed.authKey },
      { label: 'authKey (currentAuthKey of the change)', value: changed.currentAuthKey },
    ];
    restSecrets.push(...passwordSecrets);
    wireSecrets.push(
      ...passwordSecrets,
      { label: 'marker shared by every field', value: TAG },
      { label: 'username', value: MARKERS.username },
      { label: 'e-mail', value: MARKERS.email },
      { label: 'phone number', value: PHONE_DIGITS },
      ...tokens,
    );
  });

  it('keeps every marker, authKey and token out of every log file of every service', async () => {
    const dir = env.logDir;
    expect(dir).toBeDefined();
    const { barrierSeen, logs } = await logsAfterBarrier(dir ?? '', 'zk-barrier');
    expect(barrierSeen).toBe(true);

    // The logs are really there: at least the gateway's and the auth service's, with content.
    const names = logs.map((l) => l.name);
    expect(names).toEqual(expect.arrayContaining(['gateway.log', 'auth.log']));
    expect(logs.find((l) => l.name === 'gateway.log')?.content.length).toBeGreaterThan(0);
    expect(logs.find((l) => l.name === 'auth.log')?.content.length).toBeGreaterThan(0);
    expect(tokens.filter((t) => t.label.startsWith('refresh')).length).toBeGreaterThanOrEqual(4);

    expect(findSecrets(logs, wireSecrets)).toEqual([]);
  });

  it('holds no password and no authKey in the database, which does hold the account', async () => {
    expect(env.databaseUrl).toBeDefined();
    const tables = await dumpDatabase(env.databaseUrl ?? '');

    // The right database: the account is in it.
    expect(findSecrets(tables, [{ label: 'user id', value: userId }]).length).toBeGreaterThan(0);
    expect(findSecrets(tables, restSecrets)).toEqual([]);
  });

  it('holds no password, no authKey and no raw token in Redis, which does hold the sessions', async () => {
    expect(env.redisUrl).toBeDefined();
    expect(env.redisPrefix).toBeDefined();
    const keys = await dumpRedis(env.redisUrl ?? '', env.redisPrefix ?? '');

    // The right Redis prefix: the live sessions are in it.
    const sessions = [...sessionIds].map((sid) => ({ label: 'session id', value: sid }));
    expect(findSecrets(keys, sessions).length).toBeGreaterThan(0);
    expect(findSecrets(keys, [...restSecrets, ...tokens])).toEqual([]);
  });
});
