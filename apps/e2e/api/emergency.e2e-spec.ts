/**
 * Emergency verification end to end: failed sign-ins followed by the right password from a device the
 * account has never used answer 418; POST /api/auth/verify-emergency then signs in with the username and
 * phone number. The stack's gateway does not trust X-Forwarded-For (TRUST_PROXY is off), so every request
 * comes from 127.0.0.1 and the device differs by its User-Agent family alone.
 */
import { randomBytes } from 'node:crypto';
import type { AuthResponse } from '@vault/contracts';
import { login, signUp, type TestAccount } from '../support/accounts';
import { STACK } from '../support/env';
import { expectError, expectRefreshCookie, meStatus } from '../support/expect';
import { ApiClient } from '../support/http';

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0';
const VERIFY = '/api/auth/verify-emergency';
const MESSAGE = 'Unusual activity detected. Please verify your identity with additional information.';

describe('emergency verification', () => {
  const wrongKey = () => randomBytes(32).toString('hex');

  async function failedSignIns(
    account: TestAccount,
    n: number = STACK.emergencyFailedAttempts,
  ): Promise<void> {
    const client = new ApiClient('guesser', { userAgent: FIREFOX_WINDOWS });
    for (let i = 0; i < n; i += 1) {
      expectError(await login(client, account.identity.username, wrongKey()), 401, 'Invalid credentials');
    }
  }

  const verifyBody = (account: TestAccount, overrides: Record<string, string> = {}) => ({
    identifier: account.identity.email,
    username: account.identity.username,
    phoneNumber: account.identity.phoneNumber,
    authKey: account.keys.authKey,
    ...overrides,
  });

  it('answers 418 for the right password from a new device after failed attempts, then verify-emergency signs in', async () => {
    const account = await signUp();
    await failedSignIns(account);
    const device = new ApiClient('new-laptop', { userAgent: FIREFOX_WINDOWS });

    const challenged = await login(device, account.identity.username, account.keys.authKey);
    expectError(challenged, 418, MESSAGE, { requiresEmergencyVerification: true });
    expect(challenged.body).not.toHaveProperty('access');
    expect(challenged.setCookies).toEqual([]);

    // A wrong phone number (a wrong username or key answer the same; each counts toward the lockout).
    expectError(
      await device.post(VERIFY, verifyBody(account, { phoneNumber: '+1 (555) 000-0000' }), { token: null }),
      401,
      'Emergency verification failed',
    );
    expectError(
      await device.post(VERIFY, verifyBody(account, { username: '' }), { token: null }),
      400,
      /fill in all/,
    );

    // The phone in another notation is the same number.
    const digits = account.identity.phoneNumber.replace(/\D/g, '');
    const passed = await device.post<AuthResponse>(
      VERIFY,
      verifyBody(account, { phoneNumber: `+${digits}` }),
      {
        token: null,
      },
    );
    expect(passed.status).toBe(200);
    expect(passed.body.user.id).toBe(account.user.id);
    expect(passed.body.wrappedVaultKey).toBe(account.keys.wrappedVaultKey);
    expectRefreshCookie(passed);
    device.access = passed.body.access;
    expect(await meStatus(device)).toBe(200);

    // The device is known now: the right password from it is not challenged, even after more failures.
    await failedSignIns(account, 1);
    expect(
      (
        await login(
          new ApiClient('same-laptop', { userAgent: FIREFOX_WINDOWS }),
          account.identity.email,
          account.keys.authKey,
        )
      ).status,
    ).toBe(200);
  });

  it('does not challenge a device the account already knows', async () => {
    const account = await signUp(); // signed up with the e2e client's User-Agent family
    await failedSignIns(account, STACK.emergencyFailedAttempts + 1);
    const res = await login(new ApiClient('same-family'), account.identity.username, account.keys.authKey);
    expect(res.status).toBe(200);
  });

  it('does not challenge a new device without recent failures', async () => {
    const account = await signUp();
    const res = await login(
      new ApiClient('first-time-here', { userAgent: FIREFOX_WINDOWS }),
      account.identity.username,
      account.keys.authKey,
    );
    expect(res.status).toBe(200);
  });

  it('counts failed verifications toward the lockout', async () => {
    const account = await signUp();
    await failedSignIns(account);
    const device = new ApiClient('locked-out', { userAgent: FIREFOX_WINDOWS });
    expect((await login(device, account.identity.username, account.keys.authKey)).status).toBe(418);
    expectError(
      await device.post(VERIFY, verifyBody(account, { authKey: wrongKey() }), { token: null }),
      401,
      'Emergency verification failed',
    );
    // Five consecutive failures (3 sign-ins, 2 verifications) lock the account: the right details get 423.
    const locked = await device.post(VERIFY, verifyBody(account, { phoneNumber: '+1 555 000 0000' }), {
      token: null,
    });
    expect(locked.status).toBe(423);
    expect((await device.post(VERIFY, verifyBody(account), { token: null })).status).toBe(423);
  });
});
