import { AUTH_PATTERNS, ErrorCode, type AuthResponse, type WithRefresh } from '@vault/contracts';
import { LoginGuardService } from '../../src/services/login-guard.service';
import {
  hex,
  signupBody,
  sleep,
  startAuthTestApp,
  testAppPerFile,
  type AuthTestApp,
} from './support/auth-test-app';

let ipCounter = 0;
const freshIp = () => `203.0.113.${(ipCounter += 1)}`;

async function signup(t: AuthTestApp) {
  const body = signupBody();
  const res = await t.call<WithRefresh<AuthResponse>>(AUTH_PATTERNS.signup, body, { ip: freshIp() });
  return { body, userId: res.body.user.id };
}

const attempt = (t: AuthTestApp, identifier: string, authKey: string, ip: string) =>
  t.call<WithRefresh<AuthResponse>>(AUTH_PATTERNS.login, { identifier, authKey }, { ip });
const failedAttempt = (t: AuthTestApp, identifier: string, authKey: string, ip: string) =>
  t.fail(AUTH_PATTERNS.login, { identifier, authKey }, { ip });

const eventsOf = async (t: AuthTestApp, userId: string) =>
  (
    await t.pg.query<{ event_type: string; details: Record<string, unknown> }>(
      `SELECT event_type, details FROM auth.security_events WHERE user_id = $1 ORDER BY created_at`,
      [userId],
    )
  ).rows;

describe(LoginGuardService.name, () => {
  describe('account lockout with the production settings (5 failures, 600 s)', () => {
    const t = testAppPerFile(() => startAuthTestApp('lockout'));

    it('answers 401 four times, then 423 with retryAfter 600 on the fifth consecutive failure', async () => {
      const a = await signup(t);
      const ip = freshIp();
      for (let i = 1; i <= 4; i += 1) {
        expect((await failedAttempt(t, a.body.username, hex(32), ip)).code).toBe(
          ErrorCode.INVALID_CREDENTIALS,
        );
      }
      const fifth = await failedAttempt(t, a.body.username, hex(32), ip);
      expect(fifth.code).toBe(ErrorCode.ACCOUNT_LOCKED);
      expect(fifth.extra).toEqual({ retryAfter: 600 });
      expect(fifth.message).toContain('5 consecutive failed login attempts');
    });

    it('refuses even the right key while locked, with the remaining seconds', async () => {
      const a = await signup(t);
      for (let i = 0; i < 5; i += 1) await failedAttempt(t, a.body.email, hex(32), freshIp());
      await sleep(1100);
      const locked = await failedAttempt(t, a.body.email, a.body.authKey, freshIp());
      expect(locked.code).toBe(ErrorCode.ACCOUNT_LOCKED);
      expect(locked.extra.retryAfter).toBeGreaterThanOrEqual(598);
      expect(locked.extra.retryAfter).toBeLessThan(600);
    });

    it('mirrors the count and the lock into the users row and records the events', async () => {
      const a = await signup(t);
      for (let i = 0; i < 3; i += 1) await failedAttempt(t, a.body.username, hex(32), freshIp());
      let row = (await t.pg.query(`SELECT * FROM auth.users WHERE id = $1`, [a.userId])).rows[0];
      expect(row).toMatchObject({ failed_login_attempts: 3, locked_until: null, locked_reason: null });

      for (let i = 0; i < 2; i += 1) await failedAttempt(t, a.body.username, hex(32), freshIp());
      row = (await t.pg.query(`SELECT * FROM auth.users WHERE id = $1`, [a.userId])).rows[0];
      expect(row.failed_login_attempts).toBe(5);
      expect(row.locked_reason).toBe('Too many failed login attempts');
      const lockedForMs = (row.locked_until as Date).getTime() - Date.now();
      expect(lockedForMs).toBeGreaterThan(590_000);
      expect(lockedForMs).toBeLessThanOrEqual(600_000);

      await failedAttempt(t, a.body.username, a.body.authKey, freshIp());
      const events = await eventsOf(t, a.userId);
      expect(events.map((e) => e.event_type)).toEqual([
        'signup',
        ...Array(5).fill('signin_failure'),
        'account_locked',
        'signin_failure',
      ]);
      expect(events[5]?.details).toEqual({ reason: 'bad_key' });
      expect(events[6]?.details).toEqual({ failedAttempts: 5, lockSeconds: 600 });
      expect(events[7]?.details).toEqual({ reason: 'locked' });
    });

    it('forgets the failures after a successful sign-in', async () => {
      const a = await signup(t);
      for (let i = 0; i < 4; i += 1) await failedAttempt(t, a.body.username, hex(32), freshIp());
      await attempt(t, a.body.username, a.body.authKey, freshIp());
      const row = (await t.pg.query(`SELECT failed_login_attempts FROM auth.users WHERE id = $1`, [a.userId]))
        .rows[0];
      expect(row.failed_login_attempts).toBe(0);
      for (let i = 0; i < 4; i += 1) {
        expect((await failedAttempt(t, a.body.username, hex(32), freshIp())).code).toBe(
          ErrorCode.INVALID_CREDENTIALS,
        );
      }
      await expect(attempt(t, a.body.username, a.body.authKey, freshIp())).resolves.toBeDefined();
    });

    it('locks once under a burst of concurrent failures and records a single account_locked', async () => {
      const a = await signup(t);
      const results = await Promise.all(
        Array.from({ length: 10 }, () => failedAttempt(t, a.body.username, hex(32), freshIp())),
      );
      const codes = results.map((e) => e.code);
      expect(codes.filter((c) => c === ErrorCode.INVALID_CREDENTIALS).length).toBeLessThanOrEqual(4);
      expect(codes.every((c) => c === ErrorCode.INVALID_CREDENTIALS || c === ErrorCode.ACCOUNT_LOCKED)).toBe(
        true,
      );
      const locks = (await eventsOf(t, a.userId)).filter((e) => e.event_type === 'account_locked');
      expect(locks).toHaveLength(1);
    });

    it('locks an unknown identifier the same way, so lockout does not reveal which accounts exist', async () => {
      const ghost = `ghost_${hex(4)}`;
      for (let i = 0; i < 4; i += 1) {
        expect((await failedAttempt(t, ghost, hex(32), freshIp())).code).toBe(ErrorCode.INVALID_CREDENTIALS);
      }
      const fifth = await failedAttempt(t, ghost, hex(32), freshIp());
      expect(fifth.code).toBe(ErrorCode.ACCOUNT_LOCKED);
      expect(fifth.extra).toEqual({ retryAfter: 600 });
    });

    it('keeps the lock when Redis lost it but the row still holds one', async () => {
      const a = await signup(t);
      await t.pg.query(`UPDATE auth.users SET locked_until = now() + interval '2 minutes' WHERE id = $1`, [
        a.userId,
      ]);
      const locked = await failedAttempt(t, a.body.username, a.body.authKey, freshIp());
      expect(locked.code).toBe(ErrorCode.ACCOUNT_LOCKED);
      expect(locked.extra.retryAfter).toBeGreaterThan(100);
      expect(locked.extra.retryAfter).toBeLessThanOrEqual(120);
    });
  });

  describe('lock expiry and per-IP throttling (1 s lock, 3 failures per IP)', () => {
    const t = testAppPerFile(() =>
      startAuthTestApp('lockexpiry', {
        LOCKOUT_SECONDS: '1',
        LOGIN_IP_MAX_FAILURES: '3',
        LOGIN_IP_WINDOW_SECONDS: '900',
      }),
    );

    it('lifts the lock by itself when LOCKOUT_SECONDS have passed', async () => {
      const a = await signup(t);
      for (let i = 0; i < 4; i += 1) await failedAttempt(t, a.body.username, hex(32), freshIp());
      const fifth = await failedAttempt(t, a.body.username, hex(32), freshIp());
      expect(fifth).toMatchObject({ code: ErrorCode.ACCOUNT_LOCKED, extra: { retryAfter: 1 } });
      expect((await failedAttempt(t, a.body.username, a.body.authKey, freshIp())).code).toBe(
        ErrorCode.ACCOUNT_LOCKED,
      );

      await sleep(1200);
      const res = await attempt(t, a.body.username, a.body.authKey, freshIp());
      expect(res.body.user.id).toBe(a.userId);
      const row = (await t.pg.query(`SELECT * FROM auth.users WHERE id = $1`, [a.userId])).rows[0];
      expect(row).toMatchObject({ failed_login_attempts: 0, locked_until: null, locked_reason: null });
    });

    it('refuses an IP with 429 and retryAfter once it used up its failures, whatever the account', async () => {
      const a = await signup(t);
      const b = await signup(t);
      const ip = freshIp();
      expect((await failedAttempt(t, a.body.username, hex(32), ip)).code).toBe(ErrorCode.INVALID_CREDENTIALS);
      expect((await failedAttempt(t, b.body.username, hex(32), ip)).code).toBe(ErrorCode.INVALID_CREDENTIALS);
      expect((await failedAttempt(t, `ghost_${hex(3)}`, hex(32), ip)).code).toBe(
        ErrorCode.INVALID_CREDENTIALS,
      );

      const throttled = await failedAttempt(t, a.body.username, a.body.authKey, ip);
      expect(throttled.code).toBe(ErrorCode.RATE_LIMITED);
      expect(throttled.extra.retryAfter).toBeGreaterThan(890);
      expect(throttled.extra.retryAfter).toBeLessThanOrEqual(900);

      // Other IPs are not affected, and the throttled attempts did not count toward lockout.
      await expect(attempt(t, a.body.username, a.body.authKey, freshIp())).resolves.toBeDefined();
    });

    it('does not count successful sign-ins against the IP', async () => {
      const a = await signup(t);
      const ip = freshIp();
      for (let i = 0; i < 5; i += 1) await attempt(t, a.body.username, a.body.authKey, ip);
      await expect(attempt(t, a.body.username, a.body.authKey, ip)).resolves.toBeDefined();
    });
  });
});
