import { AUTH_PATTERNS, DEFAULT_KDF_PARAMS, type RecoveryKeyVerifiedResponse } from '@vault/contracts';
import { consoleSessionLives, openConsoleSession, signUp } from './support/admin-fixtures';
import { hex, sealedKeyValue, startAuthTestApp, testAppPerFile } from './support/auth-test-app';

/**
 * An admin-console session was signed in to with the account's key: every change of that key,
 * and the account's deletion, ends it (apps/auth/README.md "Admin calls").
 */
describe('console sessions end with the credentials', () => {
  const t = testAppPerFile(() => startAuthTestApp('consoleend'));
  const newCredentials = () => ({
    authKey: hex(32),
    salt: hex(16),
    kdfParams: DEFAULT_KDF_PARAMS,
    wrappedVaultKey: sealedKeyValue(),
  });

  it('a password change ends every console session of the account, not another account’s', async () => {
    const [a, other] = [await signUp(t), await signUp(t)];
    const [first, second, others] = [
      await openConsoleSession(t, a.userId),
      await openConsoleSession(t, a.userId),
      await openConsoleSession(t, other.userId),
    ];
    await t.call(
      AUTH_PATTERNS.changePassword,
      { currentAuthKey: a.body.authKey, ...newCredentials() },
      a.ctx,
    );
    expect(await consoleSessionLives(t, first)).toBe(false);
    expect(await consoleSessionLives(t, second)).toBe(false);
    expect(await consoleSessionLives(t, others)).toBe(true);
  });

  it('a wrong current key changes nothing: the console session stays', async () => {
    const a = await signUp(t);
    const hash = await openConsoleSession(t, a.userId);
    await t.fail(AUTH_PATTERNS.changePassword, { currentAuthKey: hex(32), ...newCredentials() }, a.ctx);
    expect(await consoleSessionLives(t, hash)).toBe(true);
  });

  it('an access reset (recovery) ends the console sessions', async () => {
    const a = await signUp(t);
    const recoveryAuth = hex(32);
    await t.call(
      AUTH_PATTERNS.recoverySetupKey,
      { authKey: a.body.authKey, recoveryAuth, recoveryWrappedVaultKey: sealedKeyValue() },
      a.ctx,
    );
    const { bypassToken } = await t.call<RecoveryKeyVerifiedResponse>(AUTH_PATTERNS.recoveryVerifyKey, {
      email: a.body.email,
      recoveryAuth,
    });
    const hash = await openConsoleSession(t, a.userId);
    await t.call(AUTH_PATTERNS.recoveryReset, { bypassToken, ...newCredentials(), newVaultKey: false });
    expect(await consoleSessionLives(t, hash)).toBe(false);
  });

  it('deleting the account ends the console sessions', async () => {
    const a = await signUp(t);
    const hash = await openConsoleSession(t, a.userId);
    await t.call(AUTH_PATTERNS.deleteAccount, { authKey: a.body.authKey }, a.ctx);
    expect(await consoleSessionLives(t, hash)).toBe(false);
  });
});
