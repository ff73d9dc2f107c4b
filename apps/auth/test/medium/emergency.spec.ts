import {
  AUTH_PATTERNS,
  ErrorCode,
  type AuthResponse,
  type RpcContext,
  type VerifyEmergencyBody,
  type WithRefresh,
} from '@vault/contracts';
import { UnusualActivityService } from '../../src/services/unusual-activity.service';
import { hex, signupBody, startAuthTestApp, testAppPerFile } from './support/auth-test-app';

const HOME: Partial<RpcContext> = {
  ip: '198.51.100.7',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
};
/** Same browser family and /24 as HOME: the same device. */
const HOME_LATER: Partial<RpcContext> = {
  ip: '198.51.100.200',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:141.0) Gecko/20100101 Firefox/141.0',
};
const ELSEWHERE: Partial<RpcContext> = {
  ip: '203.0.113.50',
  userAgent:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};

describe(UnusualActivityService.name, () => {
  // Two failures within a minute make a sign-in from a new device unusual.
  const t = testAppPerFile(() =>
    startAuthTestApp('emergency', { EMERGENCY_FAILED_ATTEMPTS: '2', EMERGENCY_WINDOW_SECONDS: '60' }),
  );

  async function account() {
    const body = signupBody();
    const res = await t.call<WithRefresh<AuthResponse>>(AUTH_PATTERNS.signup, body, HOME);
    return { body, userId: res.body.user.id };
  }

  const login = (identifier: string, authKey: string, ctx: Partial<RpcContext>) =>
    t.call<WithRefresh<AuthResponse>>(AUTH_PATTERNS.login, { identifier, authKey }, ctx);
  const failLogin = (identifier: string, authKey: string, ctx: Partial<RpcContext>) =>
    t.fail(AUTH_PATTERNS.login, { identifier, authKey }, ctx);
  const failures = async (identifier: string, n: number) => {
    for (let i = 0; i < n; i += 1) await failLogin(identifier, hex(32), ELSEWHERE);
  };
  const verifyBody = (
    a: Awaited<ReturnType<typeof account>>,
    overrides: Partial<VerifyEmergencyBody> = {},
  ) => ({
    identifier: a.body.email,
    username: a.body.username.toUpperCase(),
    phoneNumber: ` ${a.body.phoneNumber} `,
    authKey: a.body.authKey,
    ...overrides,
  });
  const eventsOf = async (userId: string): Promise<string[]> =>
    (
      await t.pg.query<{ event_type: string }>(
        `SELECT event_type FROM auth.security_events WHERE user_id = $1 ORDER BY created_at`,
        [userId],
      )
    ).rows.map((r) => r.event_type);

  it('answers 418 with requiresEmergencyVerification for the right key from a new device after failures', async () => {
    const a = await account();
    await failures(a.body.username, 2);
    const error = await failLogin(a.body.username, a.body.authKey, ELSEWHERE);
    expect(error.code).toBe(ErrorCode.EMERGENCY_VERIFICATION_REQUIRED);
    expect(error.message).toBe(
      'Unusual activity detected. Please verify your identity with additional information.',
    );
    expect(error.extra).toEqual({ requiresEmergencyVerification: true });
    expect(await eventsOf(a.userId)).toEqual([
      'signup',
      'signin_failure',
      'signin_failure',
      'emergency_verification_required',
    ]);
    // No session was started and the failures are not forgotten: it asks again.
    expect((await failLogin(a.body.username, a.body.authKey, ELSEWHERE)).code).toBe(
      ErrorCode.EMERGENCY_VERIFICATION_REQUIRED,
    );
  });

  it('does not challenge a known device (same browser family and network), even after failures', async () => {
    const a = await account();
    await failures(a.body.username, 3);
    const res = await login(a.body.username, a.body.authKey, HOME_LATER);
    expect(res.body.user.id).toBe(a.userId);
  });

  it('does not challenge a new device below the threshold, and then knows it', async () => {
    const a = await account();
    await failures(a.body.username, 1);
    await expect(login(a.body.username, a.body.authKey, ELSEWHERE)).resolves.toBeDefined();
    await failures(a.body.username, 2);
    await expect(login(a.body.username, a.body.authKey, ELSEWHERE)).resolves.toBeDefined();
  });

  it('only counts failures since the last successful sign-in', async () => {
    const a = await account();
    await failures(a.body.username, 2);
    await login(a.body.username, a.body.authKey, HOME);
    await expect(login(a.body.username, a.body.authKey, ELSEWHERE)).resolves.toBeDefined();
  });

  it('does not trap an account that knows no device yet', async () => {
    const a = await account();
    await t.redis.client.del(`known-dev:${a.userId}`);
    await failures(a.body.username, 3);
    await expect(login(a.body.username, a.body.authKey, ELSEWHERE)).resolves.toBeDefined();
  });

  describe('verify-emergency', () => {
    it('signs in with the right username, phone (any notation) and key, and the device becomes known', async () => {
      const a = await account();
      await failures(a.body.username, 2);
      await failLogin(a.body.username, a.body.authKey, ELSEWHERE);

      const res = await t.call<WithRefresh<AuthResponse>>(
        AUTH_PATTERNS.verifyEmergency,
        verifyBody(a),
        ELSEWHERE,
      );
      expect(res.body.user.id).toBe(a.userId);
      expect(res.body.wrappedVaultKey).toBe(a.body.wrappedVaultKey);
      expect(res.refresh?.token).toEqual(expect.any(String));

      await failures(a.body.username, 2);
      await expect(login(a.body.username, a.body.authKey, ELSEWHERE)).resolves.toBeDefined();
      const events = await eventsOf(a.userId);
      expect(events).toContain('emergency_verification_passed');
      expect(events.filter((e) => e === 'emergency_verification_required')).toHaveLength(1);
    });

    it('answers requires2FA without a session when two-factor is on, and the code step is not challenged', async () => {
      const a = await account();
      await t.pg.query(`UPDATE auth.users SET two_factor_enabled = true WHERE id = $1`, [a.userId]);
      await failures(a.body.username, 2);
      expect((await failLogin(a.body.username, a.body.authKey, ELSEWHERE)).code).toBe(
        ErrorCode.EMERGENCY_VERIFICATION_REQUIRED,
      );
      const res = await t.call<WithRefresh<unknown>>(AUTH_PATTERNS.verifyEmergency, verifyBody(a), ELSEWHERE);
      expect(res).toEqual({ body: { requires2FA: true } });
      // The device is verified: the password step of the 2FA sign-in passes the rule now.
      const again = await t.call<WithRefresh<unknown>>(
        AUTH_PATTERNS.login,
        { identifier: a.body.username, authKey: a.body.authKey },
        ELSEWHERE,
      );
      expect(again).toEqual({ body: { requires2FA: true } });
    });

    it('answers 401 Emergency verification failed for a wrong username, phone or key, counting toward lockout', async () => {
      const a = await account();
      const wrong = [
        verifyBody(a, { username: `${a.body.username}x` }),
        verifyBody(a, { phoneNumber: '+1 555 000 0000' }),
        verifyBody(a, { authKey: hex(32) }),
        verifyBody(a, { identifier: `ghost_${hex(3)}` }),
      ];
      for (const body of wrong) {
        const error = await t.fail(AUTH_PATTERNS.verifyEmergency, body, ELSEWHERE);
        expect(error.code).toBe(ErrorCode.EMERGENCY_VERIFICATION_FAILED);
        expect(error.message).toBe('Emergency verification failed');
      }
      const row = (await t.pg.query(`SELECT failed_login_attempts FROM auth.users WHERE id = $1`, [a.userId]))
        .rows[0];
      expect(row.failed_login_attempts).toBe(3);
      expect(await eventsOf(a.userId)).toEqual([
        'signup',
        'emergency_verification_failed',
        'emergency_verification_failed',
        'emergency_verification_failed',
      ]);
      // Two more failures lock the account (LOCKOUT_THRESHOLD 5): even the right details get 423.
      await t.fail(AUTH_PATTERNS.verifyEmergency, wrong[0], ELSEWHERE);
      const fifth = await t.fail(AUTH_PATTERNS.verifyEmergency, wrong[1], ELSEWHERE);
      expect(fifth.code).toBe(ErrorCode.ACCOUNT_LOCKED);
      expect((await t.fail(AUTH_PATTERNS.verifyEmergency, verifyBody(a), ELSEWHERE)).code).toBe(
        ErrorCode.ACCOUNT_LOCKED,
      );
    });

    it('validates the body', async () => {
      const error = await t.fail(AUTH_PATTERNS.verifyEmergency, {
        identifier: 'x',
        username: '',
        phoneNumber: '1',
        authKey: hex(32),
      });
      expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
      expect(error.message).toBe('Please fill in all verification fields');
    });
  });
});
