/**
 * HAZARDOUS: raw AES-256-GCM on WebCrypto. The caller owns IV uniqueness and the AAD; protocol code goes
 * through seal.ts / file-stream.ts instead.
 */
import { VaultCryptoError, badInput } from '../errors';
import { isBytes } from '../encoding';
import { IV_BYTES, KEY_BYTES, TAG_BYTES, ownBytes, requireBytes } from '../validate';
import { errorName, subtle } from './subtle';

export type AesKeyInput = CryptoKey | Uint8Array;
type AesUsage = 'encrypt' | 'decrypt' | 'unwrapKey';

/**
 * Keys already found to be AES-256-GCM, with their usages (neither ever changes for a CryptoKey):
 * a vault's list checks each note key three times, and the tag and getters cost more than the
 * lookup (bench/vault.bench.mjs).
 */
const checkedKeys = new WeakMap<object, readonly string[]>();

export function isAesGcmKey(value: unknown): value is CryptoKey {
  if (typeof value !== 'object' || value === null) return false;
  if (checkedKeys.has(value)) return true;
  if (Object.prototype.toString.call(value) !== '[object CryptoKey]') return false;
  const k = value as CryptoKey;
  const alg = k.algorithm as Partial<AesKeyAlgorithm> | undefined;
  const ok = k.type === 'secret' && alg?.name === 'AES-GCM' && alg.length === KEY_BYTES * 8;
  if (ok) checkedKeys.set(value, [...k.usages]);
  return ok;
}

/** Whether an AES-256-GCM CryptoKey may be used for `usage`. */
export function keyAllows(key: CryptoKey, usage: AesUsage): boolean {
  return (checkedKeys.get(key) ?? key.usages).includes(usage);
}

/** Imports 32 raw bytes as an AES-256-GCM key (non-extractable unless asked). */
export async function importAesGcmKey(
  raw: Uint8Array,
  usages: readonly AesUsage[],
  what = 'key',
  extractable = false,
): Promise<CryptoKey> {
  requireBytes(raw, what, KEY_BYTES);
  return subtle().importKey('raw', ownBytes(raw), { name: 'AES-GCM', length: 256 }, extractable, [...usages]);
}

/** A CryptoKey (checked to be AES-256-GCM with the usage) or 32 raw bytes (imported, non-extractable). */
export async function resolveAesKey(key: unknown, usage: AesUsage, what = 'key'): Promise<CryptoKey> {
  if (isBytes(key)) return importAesGcmKey(key, [usage], what);
  if (!isAesGcmKey(key)) throw badInput(`${what} must be an AES-256-GCM CryptoKey or 32 raw bytes`);
  if (!keyAllows(key, usage))
    throw badInput(`${what} is not allowed to ${usage} (usages: ${key.usages.join(', ')})`);
  return key;
}

/** WebCrypto's AES-GCM parameters: the IV, the AAD and the 128-bit tag. */
function gcmParams(iv: Uint8Array, aad: Uint8Array): AesGcmParams {
  return { name: 'AES-GCM', iv: ownBytes(iv), additionalData: ownBytes(aad), tagLength: TAG_BYTES * 8 };
}

/**
 * Opens ciphertext || tag holding a 32-byte AES-256-GCM key and imports it (non-extractable) in
 * one WebCrypto call: the key's bytes never reach JavaScript, and a note's or file's key costs one
 * call instead of a decrypt and an import. `key` must allow `unwrapKey`. Failures as aesGcmDecrypt's.
 */
export async function aesGcmUnwrapKey(
  key: CryptoKey,
  iv: Uint8Array,
  aad: Uint8Array,
  ciphertextAndTag: Uint8Array,
  usages: readonly AesUsage[],
  context: string,
): Promise<CryptoKey> {
  requireBytes(iv, 'iv', IV_BYTES);
  requireBytes(ciphertextAndTag, 'wrapped key', KEY_BYTES + TAG_BYTES);
  try {
    return await subtle().unwrapKey(
      'raw',
      ownBytes(ciphertextAndTag),
      key,
      gcmParams(iv, aad),
      { name: 'AES-GCM', length: KEY_BYTES * 8 },
      false,
      [...usages],
    );
  } catch (e) {
    throw decryptFailure(e, context);
  }
}

/** Returns ciphertext || 16-byte tag. */
export async function aesGcmEncrypt(
  key: CryptoKey,
  iv: Uint8Array,
  aad: Uint8Array,
  plaintext: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  requireBytes(iv, 'iv', IV_BYTES);
  try {
    const ct = await subtle().encrypt(gcmParams(iv, aad), key, ownBytes(plaintext));
    return new Uint8Array(ct);
  } catch (e) {
    throw badInput(`AES-GCM encryption refused by WebCrypto (${errorName(e)})`, e);
  }
}

/**
 * Authenticates and decrypts ciphertext || tag. WebCrypto releases no plaintext unless the tag verifies.
 * `context` names what was being opened in the error message (never secret).
 */
export async function aesGcmDecrypt(
  key: CryptoKey,
  iv: Uint8Array,
  aad: Uint8Array,
  ciphertextAndTag: Uint8Array,
  context: string,
): Promise<Uint8Array<ArrayBuffer>> {
  requireBytes(iv, 'iv', IV_BYTES);
  if (ciphertextAndTag.length < TAG_BYTES) {
    throw new VaultCryptoError('BAD_FORMAT', `${context}: ciphertext is shorter than the 16-byte tag`);
  }
  try {
    const pt = await subtle().decrypt(gcmParams(iv, aad), key, ownBytes(ciphertextAndTag));
    return new Uint8Array(pt);
  } catch (e) {
    throw decryptFailure(e, context);
  }
}

/** A refused AES-GCM open: DECRYPT_FAILED for a bad tag (wrong key, AAD or bytes), else BAD_INPUT. */
function decryptFailure(e: unknown, context: string): VaultCryptoError {
  if (errorName(e) === 'OperationError') {
    return new VaultCryptoError(
      'DECRYPT_FAILED',
      `${context}: decryption failed (wrong key, wrong item/field, or the bytes were altered)`,
      { cause: e },
    );
  }
  return badInput(`${context}: AES-GCM decryption refused by WebCrypto (${errorName(e)})`, e);
}
