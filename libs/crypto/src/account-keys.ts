/**
 * Protocol v1, "Account keys": authKey, wrapKey and the wrapped vault key.
 *
 *   passwordKey     = KDF(NFC(password), salt, kdfParams)
 *   authKey         = hex(HKDF(passwordKey, "vault:v1:auth"))      sent instead of the password
 *   wrapKey         = HKDF(passwordKey, "vault:v1:wrap")           client memory only (non-extractable)
 *   wrappedVaultKey = seal(wrapKey, vaultKey, "vault:v1:vault-key")
 *
 * After unlock the app holds the vault key only as a non-extractable CryptoKey. Steps that need the raw
 * vault key (setting up recovery, changing the password, re-wrapping after a recovery) obtain it again by
 * unwrapping the stored form with the password (`unwrapVaultKeyRaw`) or the recovery key
 * (`openRecoveryVaultKey`), and wipe it when done.
 */
import { bytesToHex } from './encoding';
import { AAD } from './aad';
import { DEFAULT_KDF_PARAMS, HKDF_INFO, derivePasswordKey, validateKdfParams } from './kdf';
import { hkdfAesKey, hkdfBytes, randomBytes } from './primitives';
import { openRawKey, seal } from './seal';
import type { BytesOrHex, Hex, KdfParams, Sealed } from './types';
import { IV_BYTES, KEY_BYTES, SALT_BYTES, bytesOrHex, requireBytes, requireObject, wipe } from './validate';

export interface AccountKeys {
  /** hex(HKDF(passwordKey, "vault:v1:auth")): what the client sends instead of the password. */
  readonly authKey: Hex;
  /** HKDF(passwordKey, "vault:v1:wrap") as a non-extractable AES-256-GCM key (encrypt, decrypt). */
  readonly wrapKey: CryptoKey;
}

/** What the server stores for a password and returns at prelogin/sign-in. */
export interface WrappedVaultKey {
  readonly salt: BytesOrHex;
  readonly kdfParams: KdfParams;
  readonly wrappedVaultKey: Sealed | string;
}

/** What sign-up and password changes send to the server. */
export interface PasswordMaterial {
  readonly salt: Hex;
  readonly kdfParams: KdfParams;
  readonly authKey: Hex;
  readonly wrappedVaultKey: Sealed;
}

export async function deriveAccountKeys(
  password: string,
  saltHex: BytesOrHex,
  params: KdfParams,
): Promise<AccountKeys> {
  const passwordKey = await derivePasswordKey(password, saltHex, params);
  try {
    const auth = await hkdfBytes(passwordKey, HKDF_INFO.auth);
    const authKey = bytesToHex(auth);
    wipe(auth);
    const wrapKey = await hkdfAesKey(passwordKey, HKDF_INFO.wrap, ['encrypt', 'decrypt']);
    return { authKey, wrapKey };
  } finally {
    wipe(passwordKey);
  }
}

/** authKey only (sign-in). */
export async function deriveAuthKey(password: string, salt: BytesOrHex, kdfParams: KdfParams): Promise<Hex> {
  return (await deriveAccountKeys(password, salt, kdfParams)).authKey;
}

/** @internal Unwraps the raw vault key with a password; also returns the authKey derived on the way. */
export async function unwrapWithPassword(
  password: string,
  material: WrappedVaultKey,
): Promise<{ authKey: Hex; vaultKeyRaw: Uint8Array }> {
  const m = requireObject(material, 'wrapped vault key material') as unknown as WrappedVaultKey;
  const { authKey, wrapKey } = await deriveAccountKeys(password, m.salt, m.kdfParams);
  const vaultKeyRaw = await openRawKey(wrapKey, m.wrappedVaultKey, AAD.vaultKey);
  return { authKey, vaultKeyRaw };
}

/**
 * The raw 32-byte vault key, unwrapped with the password. Only for steps that must re-wrap it (recovery
 * setup, password change); wipe it (`.fill(0)`) when done. Throws DECRYPT_FAILED on a wrong password.
 */
export async function unwrapVaultKeyRaw(password: string, material: WrappedVaultKey): Promise<Uint8Array> {
  return (await unwrapWithPassword(password, material)).vaultKeyRaw;
}

/**
 * Wraps a raw vault key under a (new) password: fresh salt (unless given), the given KDF parameters
 * (default: DEFAULT_KDF_PARAMS). Used by changePassword and after a recovery. `salt`/`iv` are for tests.
 */
export async function rewrapVaultKey(
  newPassword: string,
  vaultKeyRaw: Uint8Array,
  opts: { kdfParams?: KdfParams; salt?: BytesOrHex; iv?: Uint8Array } = {},
): Promise<PasswordMaterial> {
  requireBytes(vaultKeyRaw, 'vault key', KEY_BYTES);
  const kdfParams = validateKdfParams(opts.kdfParams ?? DEFAULT_KDF_PARAMS);
  const salt = opts.salt === undefined ? randomBytes(SALT_BYTES) : bytesOrHex(opts.salt, 'salt', SALT_BYTES);
  if (opts.iv !== undefined) requireBytes(opts.iv, 'iv', IV_BYTES);
  const { authKey, wrapKey } = await deriveAccountKeys(newPassword, salt, kdfParams);
  const wrappedVaultKey = await seal(wrapKey, vaultKeyRaw, AAD.vaultKey, opts.iv);
  return { salt: bytesToHex(salt), kdfParams, authKey, wrappedVaultKey };
}
