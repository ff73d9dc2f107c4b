/**
 * Protocol v1, "Recovery" (1): the recovery key.
 *
 *   rk                      = 32 random bytes, shown once as RFC 4648 base32 without padding, groups of 4
 *                             joined by '-' (52 characters of base32)
 *   recoveryAuth            = hex(HKDF(rk, "vault:v1:recovery-auth"))     sent to the server
 *   recoveryWrappedVaultKey = seal(HKDF(rk, "vault:v1:recovery-wrap"), vaultKey, "vault:v1:vault-key:recovery")
 *
 * The vault key is a non-extractable CryptoKey in the running app, so createRecoveryMaterial takes either
 * the raw vault key or the password-wrapped form plus the password, and unwraps it itself.
 * openRecoveryVaultKey returns the raw vault key: the next step is always setting a new password
 * (rewrapVaultKey), after which the caller imports it with importVaultKey and wipes the raw bytes.
 */
import { base32Decode, base32Encode, bytesToHex, isBytes } from './encoding';
import { badInput } from './errors';
import { AAD } from './aad';
import { HKDF_INFO } from './kdf';
import { hkdfAesKey, hkdfBytes, randomBytes } from './primitives';
import { openRawKey, seal } from './seal';
import { unwrapVaultKeyRaw } from './account-keys';
import type { WrappedVaultKey } from './account-keys';
import type { Hex, Sealed } from './types';
import { IV_BYTES, KEY_BYTES, requireBytes, requireString, wipe } from './validate';

const RECOVERY_TEXT_CHARS = 52;

export interface RecoveryMaterial {
  readonly recoveryAuth: Hex;
  readonly recoveryWrappedVaultKey: Sealed;
}

/** The vault key as raw bytes, or the password-wrapped form plus the password to unwrap it. */
export type VaultKeySource = Uint8Array | (WrappedVaultKey & { readonly password: string });

export function generateRecoveryKey(): Uint8Array {
  return randomBytes(KEY_BYTES);
}

/** 32 bytes → e.g. "AUDA-OCAJ-…-EMSA" (13 groups of 4, 52 base32 characters). */
export function recoveryKeyToText(raw: Uint8Array): string {
  requireBytes(raw, 'recovery key', KEY_BYTES);
  const b32 = base32Encode(raw);
  return (b32.match(/.{1,4}/g) ?? []).join('-');
}

/** Parses a recovery key as typed: case-insensitive, spaces and dashes anywhere are ignored. */
export function recoveryKeyFromText(text: string): Uint8Array {
  requireString(text, 'recovery key');
  const compact = text.replace(/[\s-]+/g, '').toUpperCase();
  if (compact.length !== RECOVERY_TEXT_CHARS) {
    throw badInput(
      `recovery key must have ${RECOVERY_TEXT_CHARS} base32 characters (dashes and spaces aside), got ${compact.length}`,
    );
  }
  return base32Decode(compact, 'recovery key');
}

/** recoveryAuth = hex(HKDF(rk, "vault:v1:recovery-auth")): proves possession of the recovery key. */
export async function deriveRecoveryAuth(recoveryKey: Uint8Array): Promise<Hex> {
  requireBytes(recoveryKey, 'recovery key', KEY_BYTES);
  const auth = await hkdfBytes(recoveryKey, HKDF_INFO.recoveryAuth);
  const hex = bytesToHex(auth);
  wipe(auth);
  return hex;
}

async function recoveryWrapKey(recoveryKey: Uint8Array): Promise<CryptoKey> {
  requireBytes(recoveryKey, 'recovery key', KEY_BYTES);
  return hkdfAesKey(recoveryKey, HKDF_INFO.recoveryWrap, ['encrypt', 'decrypt']);
}

/** recoveryAuth and the vault key sealed under HKDF(rk, "vault:v1:recovery-wrap"). `iv` is for tests. */
export async function createRecoveryMaterial(
  recoveryKey: Uint8Array,
  vaultKey: VaultKeySource,
  iv?: Uint8Array,
): Promise<RecoveryMaterial> {
  requireBytes(recoveryKey, 'recovery key', KEY_BYTES);
  if (iv !== undefined) requireBytes(iv, 'iv', IV_BYTES);
  const owned = !isBytes(vaultKey);
  const raw = isBytes(vaultKey)
    ? requireBytes(vaultKey, 'vault key', KEY_BYTES)
    : await unwrapVaultKeyRaw(vaultKey.password, vaultKey);
  try {
    const recoveryAuth = await deriveRecoveryAuth(recoveryKey);
    const wrapKey = await recoveryWrapKey(recoveryKey);
    const recoveryWrappedVaultKey = await seal(wrapKey, raw, AAD.vaultKeyRecovery, iv);
    return { recoveryAuth, recoveryWrappedVaultKey };
  } finally {
    if (owned) wipe(raw);
  }
}

/** The raw 32-byte vault key from its recovery-wrapped form. Wipe it once re-wrapped/imported. */
export async function openRecoveryVaultKey(
  recoveryKey: Uint8Array,
  recoveryWrappedVaultKey: Sealed | string,
): Promise<Uint8Array> {
  const wrapKey = await recoveryWrapKey(recoveryKey);
  return openRawKey(wrapKey, recoveryWrappedVaultKey, AAD.vaultKeyRecovery);
}
