/**
 * Protocol v1, account flows: sign-up, unlock, change password.
 * Key derivation and (un)wrapping live in account-keys.ts; see its header for how the raw vault key is
 * obtained when a step needs it.
 */
import { AAD } from './aad';
import { DEFAULT_KDF_PARAMS, validateKdfParams } from './kdf';
import { randomBytes } from './primitives';
import { VAULT_KEY_USAGES, importVaultKey, openAesKey } from './seal';
import { deriveAccountKeys, rewrapVaultKey, unwrapWithPassword } from './account-keys';
import type { PasswordMaterial, WrappedVaultKey } from './account-keys';
import { createRecoveryMaterial, generateRecoveryKey, recoveryKeyToText } from './recovery';
import type { RecoveryMaterial } from './recovery';
import type { BytesOrHex, Hex, KdfParams } from './types';
import { IV_BYTES, KEY_BYTES, requireBytes, requireObject, requireString, wipe } from './validate';

export interface CreateAccountOptions {
  /** Default: DEFAULT_KDF_PARAMS (argon2id 65536 KiB / 3 / 4). */
  kdfParams?: KdfParams;
  /** Tests only; default 16 random bytes. */
  salt?: BytesOrHex;
  /** Tests only; default 32 random bytes. */
  vaultKey?: Uint8Array;
  /** Tests only; IV of wrappedVaultKey. */
  iv?: Uint8Array;
  /** Also make the recovery kit at sign-up: `true` for a fresh key, or a given key / IV (tests). */
  recovery?: boolean | { recoveryKey?: Uint8Array; iv?: Uint8Array };
}

export interface RecoveryKit extends RecoveryMaterial {
  /** Show once, then drop. */
  readonly recoveryKey: Uint8Array;
  readonly recoveryKeyText: string;
}

export interface CreatedAccount extends PasswordMaterial {
  /** Non-extractable AES-256-GCM key (VAULT_KEY_USAGES: encrypt, decrypt, unwrapKey). */
  readonly vaultKey: CryptoKey;
  readonly recovery?: RecoveryKit;
}

/** Sign-up material: a fresh vault key wrapped under the password (plus the recovery kit when asked). */
export async function createAccount(
  password: string,
  opts: CreateAccountOptions = {},
): Promise<CreatedAccount> {
  requireObject(opts, 'createAccount options');
  requireString(password, 'password', { nonEmpty: true });
  const vaultKeyRaw =
    opts.vaultKey === undefined
      ? randomBytes(KEY_BYTES)
      : new Uint8Array(requireBytes(opts.vaultKey, 'vault key', KEY_BYTES));
  try {
    const rewrapOpts: { kdfParams: KdfParams; salt?: BytesOrHex; iv?: Uint8Array } = {
      kdfParams: validateKdfParams(opts.kdfParams ?? DEFAULT_KDF_PARAMS),
    };
    if (opts.salt !== undefined) rewrapOpts.salt = opts.salt;
    if (opts.iv !== undefined) rewrapOpts.iv = opts.iv;
    const material = await rewrapVaultKey(password, vaultKeyRaw, rewrapOpts);
    let recovery: RecoveryKit | undefined;
    if (opts.recovery) {
      const r = opts.recovery === true ? {} : requireObject(opts.recovery, 'recovery options');
      const rk =
        r['recoveryKey'] === undefined
          ? generateRecoveryKey()
          : requireBytes(r['recoveryKey'], 'recovery key', KEY_BYTES);
      const iv = r['iv'] === undefined ? undefined : requireBytes(r['iv'], 'recovery iv', IV_BYTES);
      const m = await createRecoveryMaterial(rk, vaultKeyRaw, iv);
      recovery = { ...m, recoveryKey: rk, recoveryKeyText: recoveryKeyToText(rk) };
    }
    const vaultKey = await importVaultKey(vaultKeyRaw);
    return recovery ? { ...material, vaultKey, recovery } : { ...material, vaultKey };
  } finally {
    wipe(vaultKeyRaw);
  }
}

export interface UnlockedVault {
  readonly authKey: Hex;
  /** Non-extractable AES-256-GCM key (VAULT_KEY_USAGES: encrypt, decrypt, unwrapKey). */
  readonly vaultKey: CryptoKey;
}

/** Unlock: derive the keys and unwrap the vault key. DECRYPT_FAILED on a wrong password or altered data. */
export async function unlockVault(password: string, material: WrappedVaultKey): Promise<UnlockedVault> {
  const m = requireObject(material, 'wrapped vault key material') as unknown as WrappedVaultKey;
  const { authKey, wrapKey } = await deriveAccountKeys(password, m.salt, m.kdfParams);
  const vaultKey = await openAesKey(wrapKey, m.wrappedVaultKey, AAD.vaultKey, VAULT_KEY_USAGES);
  return { authKey, vaultKey };
}

export interface ChangePasswordInput extends WrappedVaultKey {
  readonly oldPassword: string;
  readonly newPassword: string;
  /** Default: keep the current parameters. */
  readonly newKdfParams?: KdfParams;
  /** Tests only. */
  readonly newSalt?: BytesOrHex;
  /** Tests only. */
  readonly iv?: Uint8Array;
}

export interface ChangedPassword extends PasswordMaterial {
  /** authKey of the old password, to prove it to the server in the same request. */
  readonly currentAuthKey: Hex;
}

/**
 * Unwraps the vault key with the old password and re-wraps it under the new one (new salt). The vault key,
 * and so every note and file key, is unchanged. DECRYPT_FAILED when the old password is wrong.
 */
export async function changePassword(input: ChangePasswordInput): Promise<ChangedPassword> {
  const i = requireObject(input, 'changePassword input') as unknown as ChangePasswordInput;
  const kdfParams = validateKdfParams(i.newKdfParams ?? i.kdfParams);
  requireString(i.newPassword, 'new password', { nonEmpty: true });
  const { authKey: currentAuthKey, vaultKeyRaw } = await unwrapWithPassword(i.oldPassword, i);
  try {
    const opts: { kdfParams: KdfParams; salt?: BytesOrHex; iv?: Uint8Array } = { kdfParams };
    if (i.newSalt !== undefined) opts.salt = i.newSalt;
    if (i.iv !== undefined) opts.iv = i.iv;
    const material = await rewrapVaultKey(i.newPassword, vaultKeyRaw, opts);
    return { currentAuthKey, ...material };
  } finally {
    wipe(vaultKeyRaw);
  }
}
