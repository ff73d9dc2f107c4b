import { randomBytes } from 'node:crypto';
import type { MeResponse, SessionListResponse } from '@vault/contracts';
import {
  changePassword,
  decryptNote,
  deriveAuthKey,
  encryptNote,
  newItemId,
  unlockVault,
  type ChangedPassword,
  type EncryptedNote,
} from '@vault/crypto';
import { login, openBrowser, signIn, signUp, type TestAccount } from '../support/accounts';
import { expectError, meStatus } from '../support/expect';
import { ApiClient } from '../support/http';
import { decodeJwt } from '../support/jwt';

const CHANGE = '/api/auth/change-password';
const NOTE = {
  title: 'Kept across password changes',
  content: 'The vault key does not change',
  tags: ['pw'],
};

function newPassword(): string {
  return `New-${randomBytes(6).toString('hex')}-Bb2`;
}

/** The client side of a password change (docs/crypto-protocol.md "Flows"). */
async function changeBody(account: TestAccount, password: string): Promise<ChangedPassword> {
  return changePassword({
    oldPassword: account.identity.password,
    newPassword: password,
    salt: account.keys.salt,
    kdfParams: account.keys.kdfParams,
    wrappedVaultKey: account.keys.wrappedVaultKey,
  });
}

function wire(changed: ChangedPassword) {
  const { currentAuthKey, authKey, salt, kdfParams, wrappedVaultKey } = changed;
  return { currentAuthKey, authKey, salt, kdfParams, wrappedVaultKey };
}

describe('POST /api/auth/change-password', () => {
  describe('after a successful change', () => {
    let account: TestAccount;
    let note: EncryptedNote;
    let other: ApiClient;
    let password: string;
    let changed: ChangedPassword;

    beforeEach(async () => {
      account = await signUp();
      note = await encryptNote(account.keys.vaultKey, newItemId(), NOTE);
      other = await openBrowser(account, 'other');
      password = newPassword();
      changed = await changeBody(account, password);

      const res = await account.client.post(CHANGE, wire(changed));
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
    });

    it('signs in with the new password, and its wrapped key unwraps the SAME vault key: notes sealed before still open', async () => {
      const browser = new ApiClient('new-password');
      const res = await signIn(browser, account.identity.email, password);

      expect(res.status).toBe(200);
      expect(res.prelogin).toEqual({ salt: changed.salt, kdfParams: changed.kdfParams });
      expect(res.prelogin.salt).not.toBe(account.keys.salt);
      expect(res.body.wrappedVaultKey).toBe(changed.wrappedVaultKey);
      const { vaultKey } = await unlockVault(password, {
        ...res.prelogin,
        wrappedVaultKey: res.body.wrappedVaultKey,
      });
      await expect(decryptNote(vaultKey, note)).resolves.toEqual(NOTE);
    });

    it('no longer signs in with the old password, nor with its old authKey', async () => {
      const browser = new ApiClient('old-password');
      const viaPrelogin = await signIn(browser, account.identity.username, account.identity.password);
      expectError(viaPrelogin, 401, 'Invalid credentials');

      expectError(
        await login(browser, account.identity.username, account.keys.authKey),
        401,
        'Invalid credentials',
      );
      expect(browser.access).toBeUndefined();
    });

    it("revokes every other session (token 401, cookie refused) and keeps the caller's", async () => {
      expect(await meStatus(other)).toBe(401);
      expect((await other.post('/api/auth/refresh', undefined, { token: null })).status).toBe(401);

      expect(await meStatus(account.client)).toBe(200);
      const sessions = await account.client.get<SessionListResponse>('/api/auth/sessions');
      expect(sessions.body.sessions.map((s) => s.id)).toEqual([
        decodeJwt(account.client.access ?? '').payload['sid'],
      ]);
      expect((await account.client.post('/api/auth/refresh', undefined, { token: null })).status).toBe(200);
      expect(await meStatus(account.client)).toBe(200);
    });

    it('answers the new salt and wrapped vault key from /me', async () => {
      const me = await account.client.get<MeResponse>('/api/auth/me');
      expect(me.status).toBe(200);
      expect(me.body.vault).toEqual({
        salt: changed.salt,
        kdfParams: changed.kdfParams,
        wrappedVaultKey: changed.wrappedVaultKey,
      });
    });
  });

  describe('refused changes', () => {
    let account: TestAccount;
    let other: ApiClient;

    beforeEach(async () => {
      account = await signUp();
      other = await openBrowser(account, 'other');
    });

    it('answers 401 to a wrong current authKey and changes nothing', async () => {
      const changed = await changeBody(account, newPassword());
      const wrongCurrent = await deriveAuthKey(
        'Not-The-Password-1',
        account.keys.salt,
        account.keys.kdfParams,
      );
      const res = await account.client.post(CHANGE, { ...wire(changed), currentAuthKey: wrongCurrent });

      expectError(res, 401, /\S/);
      expect(await meStatus(other)).toBe(200);
      expect(
        (await signIn(new ApiClient('still-old'), account.identity.username, account.identity.password))
          .status,
      ).toBe(200);
    });

    it("answers 400 'Invalid KDF parameters' to parameters below the protocol floor", async () => {
      const changed = await changeBody(account, newPassword());
      const weak = { kdf: 'argon2id', memoryKiB: 1024, iterations: 1, parallelism: 1 };
      expectError(
        await account.client.post(CHANGE, { ...wire(changed), kdfParams: weak }),
        400,
        'Invalid KDF parameters',
      );
      expect(await meStatus(other)).toBe(200);
    });

    it('answers 401 without an access token', async () => {
      const changed = await changeBody(account, newPassword());
      expect((await account.client.post(CHANGE, wire(changed), { token: null })).status).toBe(401);
      expect(await meStatus(other)).toBe(200);
    });
  });
});
