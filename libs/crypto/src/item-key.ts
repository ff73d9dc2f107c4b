/**
 * Protocol v1: the per-item key of a note (its dek) or a file, as "Notes" and "Files" use it alike.
 *
 *   itemKey = 32 random bytes per item
 *   wrapped = seal(vaultKey, itemKey, aad)   (aad: AAD.noteKey(id) or AAD.fileKey(id))
 */
import { importAesGcmKey, randomBytes, resolveAesKey } from './primitives';
import type { AesKeyInput } from './primitives';
import { openRawKey, seal } from './seal';
import type { Sealed } from './types';
import { IV_BYTES, KEY_BYTES, requireBytes, wipe } from './validate';

/** An IV a test vector fixes (12 bytes, checked as `what`), or undefined for a fresh random one. */
export function optionalIv(iv: unknown, what: string): Uint8Array | undefined {
  return iv === undefined ? undefined : requireBytes(iv, what, IV_BYTES);
}

/**
 * A new item key, sealed under the vault key bound to `aad` and imported as a non-extractable
 * AES-256-GCM key (encrypt/decrypt); the raw bytes are wiped. `given` and `iv` (checked as `what`
 * and `what iv`) exist for test vectors only: the key's bytes and the IV of its seal.
 */
export async function sealNewItemKey(
  vaultKey: AesKeyInput,
  aad: string,
  what: string,
  given?: unknown,
  iv?: unknown,
): Promise<{ key: CryptoKey; wrapped: Sealed }> {
  const vk = await resolveAesKey(vaultKey, 'encrypt', 'vault key');
  const raw =
    given === undefined ? randomBytes(KEY_BYTES) : new Uint8Array(requireBytes(given, what, KEY_BYTES));
  try {
    const wrapped = await seal(vk, raw, aad, optionalIv(iv, `${what} iv`));
    const key = await importAesGcmKey(raw, ['encrypt', 'decrypt'], what);
    return { key, wrapped };
  } finally {
    wipe(raw);
  }
}

/**
 * Moves an item key from one vault key to another (after an access reset, once the old password
 * unlocks the old vault key), bound to the same `aad`. The item's own fields are not touched.
 */
export async function resealItemKey(
  oldVaultKey: AesKeyInput,
  newVaultKey: AesKeyInput,
  wrapped: Sealed | string,
  aad: string,
  iv?: Uint8Array,
): Promise<Sealed> {
  const raw = await openRawKey(oldVaultKey, wrapped, aad);
  try {
    return await seal(newVaultKey, raw, aad, iv);
  } finally {
    wipe(raw);
  }
}
