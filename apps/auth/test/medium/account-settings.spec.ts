import { AUTH_PATTERNS, ErrorCode, type AuthResponse, type WithRefresh } from '@vault/contracts';
import { AccountSettingsService } from '../../src/services/account-settings.service';
import { authOf, signupBody, startAuthTestApp, testAppPerFile } from './support/auth-test-app';

describe(AccountSettingsService.name, () => {
  const t = testAppPerFile(() => startAuthTestApp('settings'));

  async function signedIn() {
    const res = await t.call<WithRefresh<AuthResponse>>(AUTH_PATTERNS.signup, signupBody());
    const userId = res.body.user.id;
    return { userId, ctx: authOf(userId, res.refresh!.token.split('.')[0]!) };
  }

  const changes = async (userId: string) =>
    (
      await t.pg.query(
        `SELECT details FROM auth.security_events WHERE user_id = $1 AND event_type = 'settings_changed'
         ORDER BY created_at`,
        [userId],
      )
    ).rows.map((r: { details: Record<string, unknown> }) => r.details);

  it('starts with the malware-fingerprint check off', async () => {
    const a = await signedIn();
    expect(await t.call(AUTH_PATTERNS.getSettings, undefined, a.ctx)).toEqual({
      malwareFingerprintCheck: false,
    });
  });

  it('stores a change, answers the stored settings and records one event per real change', async () => {
    const a = await signedIn();
    const on = { malwareFingerprintCheck: true };
    expect(await t.call(AUTH_PATTERNS.updateSettings, on, a.ctx)).toEqual(on);
    expect(await t.call(AUTH_PATTERNS.updateSettings, on, a.ctx)).toEqual(on);
    expect(await t.call(AUTH_PATTERNS.getSettings, undefined, a.ctx)).toEqual(on);
    const row = (
      await t.pg.query(`SELECT malware_fingerprint_check FROM auth.users WHERE id = $1`, [a.userId])
    ).rows[0];
    expect(row.malware_fingerprint_check).toBe(true);
    await t.call(AUTH_PATTERNS.updateSettings, { malwareFingerprintCheck: false }, a.ctx);
    expect(await changes(a.userId)).toEqual([
      expect.objectContaining({ malwareFingerprintCheck: true }),
      expect.objectContaining({ malwareFingerprintCheck: false }),
    ]);
  });

  it('refuses a malformed body and a caller without a session', async () => {
    const a = await signedIn();
    for (const body of [
      {},
      { malwareFingerprintCheck: 'yes' },
      { malwareFingerprintCheck: true, extra: 1 },
    ]) {
      expect((await t.fail(AUTH_PATTERNS.updateSettings, body, a.ctx)).code).toBe(
        ErrorCode.VALIDATION_FAILED,
      );
    }
    expect((await t.fail(AUTH_PATTERNS.getSettings, undefined)).code).toBe(ErrorCode.UNAUTHENTICATED);
    expect(
      (
        await t.fail(
          AUTH_PATTERNS.updateSettings,
          { malwareFingerprintCheck: true },
          authOf(a.userId, a.userId),
        )
      ).code,
    ).toBe(ErrorCode.SESSION_REVOKED);
  });
});
