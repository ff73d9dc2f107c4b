import { changePassword, createAccount, unlockVault } from './account';
import { deriveAccountKeys, deriveAuthKey, rewrapVaultKey, unwrapVaultKeyRaw } from './account-keys';
import { decryptNote, encryptNote } from './notes';
import { openRecoveryVaultKey, recoveryKeyFromText } from './recovery';
import { bytesToHex } from './encoding';
import { NOTE_ID, PBKDF2_FLOOR, VAULT_KEY_RAW } from '../test/support/keys';

// PBKDF2 at the protocol floor is the cheapest KDF the protocol accepts; the Argon2id path is covered by the vectors.
const KDF = PBKDF2_FLOOR;
const plain = { title: 't', content: 'c', tags: ['x'] };

describe('account', () => {
  it('createAccount makes a fresh salt and vault key, wrapped so that unlockVault opens it', async () => {
    const a = await createAccount('correct horse', { kdfParams: KDF });
    const b = await createAccount('correct horse', { kdfParams: KDF });
    expect(a.salt).toMatch(/^[0-9a-f]{32}$/);
    expect(a.salt).not.toBe(b.salt);
    expect(a.authKey).not.toBe(b.authKey);
    expect(a.vaultKey.extractable).toBe(false);
    expect(a.recovery).toBeUndefined();

    const note = await encryptNote(a.vaultKey, NOTE_ID, plain);
    const unlocked = await unlockVault('correct horse', a);
    expect(unlocked.authKey).toBe(a.authKey);
    expect(unlocked.vaultKey.extractable).toBe(false);
    // Both ways to the vault key may unwrap: the items' keys are opened inside WebCrypto.
    expect([...a.vaultKey.usages].sort()).toEqual(['decrypt', 'encrypt', 'unwrapKey']);
    expect([...unlocked.vaultKey.usages].sort()).toEqual(['decrypt', 'encrypt', 'unwrapKey']);
    expect(await decryptNote(unlocked.vaultKey, note)).toEqual(plain);
    expect(await deriveAuthKey('correct horse', a.salt, a.kdfParams)).toBe(a.authKey);
  });

  it('defaults to Argon2id 64 MiB / 3 / 4 for new accounts', async () => {
    const a = await createAccount('pw', { vaultKey: VAULT_KEY_RAW });
    expect(a.kdfParams).toEqual({ kdf: 'argon2id', memoryKiB: 65536, iterations: 3, parallelism: 4 });
  }, 30_000);

  it('refuses a wrong password, a swapped wrapped key and below-floor parameters', async () => {
    const a = await createAccount('right', { kdfParams: KDF });
    const other = await createAccount('right', { kdfParams: KDF });
    await expect(unlockVault('wrong', a)).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
    await expect(
      unlockVault('right', { ...a, wrappedVaultKey: other.wrappedVaultKey }),
    ).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
    await expect(
      unlockVault('right', { ...a, kdfParams: { kdf: 'pbkdf2-sha256', iterations: 1000 } }),
    ).rejects.toMatchObject({
      code: 'KDF_PARAMS_REJECTED',
    });
    await expect(
      createAccount('pw', { kdfParams: { kdf: 'argon2id', memoryKiB: 1024, iterations: 3, parallelism: 4 } }),
    ).rejects.toMatchObject({
      code: 'KDF_PARAMS_REJECTED',
      message: 'KDF parameters below the protocol floor: argon2id memoryKiB 1024 < 19456',
    });
    await expect(createAccount('', { kdfParams: KDF })).rejects.toMatchObject({ code: 'BAD_INPUT' });
  });

  it('deriveAccountKeys gives a non-extractable wrap key', async () => {
    const { authKey, wrapKey } = await deriveAccountKeys('pw', '00112233445566778899aabbccddeeff', KDF);
    expect(authKey).toMatch(/^[0-9a-f]{64}$/);
    expect(wrapKey.extractable).toBe(false);
    expect(wrapKey.algorithm).toMatchObject({ name: 'AES-GCM', length: 256 });
  });

  it('changePassword re-wraps the same vault key under a new salt; the old password stops working', async () => {
    const a = await createAccount('old password', { kdfParams: KDF, vaultKey: VAULT_KEY_RAW });
    const note = await encryptNote(a.vaultKey, NOTE_ID, plain);
    const changed = await changePassword({
      oldPassword: 'old password',
      newPassword: 'new password',
      salt: a.salt,
      kdfParams: a.kdfParams,
      wrappedVaultKey: a.wrappedVaultKey,
    });
    expect(changed.currentAuthKey).toBe(a.authKey);
    expect(changed.salt).not.toBe(a.salt);
    expect(changed.authKey).not.toBe(a.authKey);
    expect(changed.kdfParams).toEqual(KDF);
    expect(bytesToHex(await unwrapVaultKeyRaw('new password', changed))).toBe(bytesToHex(VAULT_KEY_RAW));
    const { vaultKey } = await unlockVault('new password', changed);
    expect(await decryptNote(vaultKey, note)).toEqual(plain);
    await expect(unlockVault('old password', changed)).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
  });

  it('changePassword refuses a wrong old password and hostile new parameters', async () => {
    const a = await createAccount('old', { kdfParams: KDF });
    const input = {
      oldPassword: 'nope',
      newPassword: 'new',
      salt: a.salt,
      kdfParams: a.kdfParams,
      wrappedVaultKey: a.wrappedVaultKey,
    };
    await expect(changePassword(input)).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
    await expect(
      changePassword({ ...input, oldPassword: 'old', newKdfParams: { kdf: 'pbkdf2-sha256', iterations: 1 } }),
    ).rejects.toMatchObject({ code: 'KDF_PARAMS_REJECTED' });
  });

  it('rewrapVaultKey wraps a raw vault key (e.g. after recovery) under a new password', async () => {
    const m = await rewrapVaultKey('after recovery', VAULT_KEY_RAW, { kdfParams: KDF });
    expect(bytesToHex(await unwrapVaultKeyRaw('after recovery', m))).toBe(bytesToHex(VAULT_KEY_RAW));
    await expect(rewrapVaultKey('x', new Uint8Array(31), { kdfParams: KDF })).rejects.toMatchObject({
      code: 'BAD_INPUT',
    });
  });

  it('createAccount can make the recovery kit at sign-up', async () => {
    const a = await createAccount('pw', { kdfParams: KDF, vaultKey: VAULT_KEY_RAW, recovery: true });
    const kit = a.recovery;
    if (!kit) throw new Error('no recovery kit');
    expect(kit.recoveryKeyText).toMatch(/^([A-Z2-7]{4}-){12}[A-Z2-7]{4}$/);
    const raw = await openRecoveryVaultKey(
      recoveryKeyFromText(kit.recoveryKeyText),
      kit.recoveryWrappedVaultKey,
    );
    expect(bytesToHex(raw)).toBe(bytesToHex(VAULT_KEY_RAW));
    expect(bytesToHex(VAULT_KEY_RAW)).toBe(
      'a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf',
    );
  });
});
