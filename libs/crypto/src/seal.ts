/**
 * Protocol v1, "Notation": seal / open.
 *
 * seal(key, plaintext, aad) = hex(AES-256-GCM(key, iv, plaintext, utf8(aad)) as ciphertext || tag) + ":" + hex(iv)
 * with a fresh random 12-byte IV and a 128-bit tag. open is its inverse; any failure throws.
 */
import { VaultCryptoError, badFormat } from './errors';
import { bytesToHex, decodeHexAt, utf8ToBytes } from './encoding';
import {
  aesGcmDecrypt,
  aesGcmEncrypt,
  aesGcmUnwrapKey,
  importAesGcmKey,
  isAesGcmKey,
  keyAllows,
  randomBytes,
  resolveAesKey,
} from './primitives';
import type { AesKeyInput } from './primitives';
import type { Sealed } from './types';
import { IV_BYTES, KEY_BYTES, TAG_BYTES, requireBytes, requireString, wipe } from './validate';

/** `hex(ct||tag):hex(iv)`: at least the 16-byte tag, an even number of hex digits, a 12-byte IV. */
export const SEALED_PATTERN = /^(?:[0-9a-f]{2}){16,}:[0-9a-f]{24}$/;
const COLON = 0x3a;

/** Format check only (no key involved): `^[0-9a-f]+:[0-9a-f]{24}$`, with whole bytes and at least a tag. */
export function isSealed(value: unknown): value is Sealed {
  return typeof value === 'string' && SEALED_PATTERN.test(value);
}

const NOT_SEALED = '(expected hex(ciphertext||tag):hex(12-byte iv))';

export function requireSealed(value: unknown, what: string): Sealed {
  if (!isSealed(value)) throw badFormat(`${what} is not a sealed value ${NOT_SEALED}`);
  return value;
}

/**
 * The bytes of a sealed value, checked as SEALED_PATTERN checks it (same error) in the one pass
 * that decodes them: opening a vault's notes parses 40,000 values, and the pattern's own pass
 * over each cost as much as decoding it (bench/vault.bench.mjs).
 */
export function parseSealed(sealed: unknown, what = 'sealed value'): { data: Uint8Array; iv: Uint8Array } {
  if (typeof sealed === 'string') {
    const colon = sealed.length - 1 - IV_BYTES * 2;
    if (colon >= TAG_BYTES * 2 && colon % 2 === 0 && sealed.charCodeAt(colon) === COLON) {
      const data = decodeHexAt(sealed, 0, colon / 2);
      const iv = data && decodeHexAt(sealed, colon + 1, IV_BYTES);
      if (data && iv) return { data, iv };
    }
  }
  throw badFormat(`${what} is not a sealed value ${NOT_SEALED}`);
}

function requireAad(aad: unknown): string {
  return requireString(aad, 'aad', { nonEmpty: true });
}

/**
 * Seals `plaintext` under `key` (an AES-256-GCM CryptoKey with `encrypt`, or 32 raw bytes) bound to `aad`.
 * `iv` exists for test vectors only: never pass one in production (an IV reused under one key breaks GCM).
 */
export async function seal(
  key: AesKeyInput,
  plaintext: Uint8Array,
  aad: string,
  iv?: Uint8Array,
): Promise<Sealed> {
  const k = await resolveAesKey(key, 'encrypt');
  requireBytes(plaintext, 'plaintext');
  const a = requireAad(aad);
  const nonce = iv === undefined ? randomBytes(IV_BYTES) : requireBytes(iv, 'iv', IV_BYTES);
  const ct = await aesGcmEncrypt(k, nonce, utf8ToBytes(a, 'aad'), plaintext);
  return `${bytesToHex(ct)}:${bytesToHex(nonce)}` as Sealed;
}

/** Opens a sealed value; throws DECRYPT_FAILED on a wrong key, a wrong AAD or any altered byte. */
export async function open(key: AesKeyInput, sealed: Sealed | string, aad: string): Promise<Uint8Array> {
  const k = await resolveAesKey(key, 'decrypt');
  const a = requireAad(aad);
  const { data, iv } = parseSealed(sealed, `sealed value for '${a}'`);
  if (data.length < TAG_BYTES) throw badFormat(`sealed value for '${a}' is shorter than its tag`);
  return aesGcmDecrypt(k, iv, utf8ToBytes(a, 'aad'), data, `open '${a}'`);
}

/** Opens a sealed 32-byte key and imports it as a non-extractable AES-256-GCM key; the raw bytes are wiped. */
export async function openAesKey(
  wrappingKey: AesKeyInput,
  sealed: Sealed | string,
  aad: string,
  usages: readonly ('encrypt' | 'decrypt' | 'unwrapKey')[] = ['encrypt', 'decrypt'],
): Promise<CryptoKey> {
  // A wrapping key that may unwrap (the vault key since importVaultKey allows it) opens and imports
  // in one call, the key's bytes never in JavaScript. A sealed value of another length takes the
  // path below, so that its errors stay the same (DECRYPT_FAILED first, then BAD_FORMAT).
  if (isAesGcmKey(wrappingKey) && keyAllows(wrappingKey, 'unwrapKey')) {
    const a = requireAad(aad);
    const { data, iv } = parseSealed(sealed, `sealed value for '${a}'`);
    if (data.length === KEY_BYTES + TAG_BYTES) {
      return aesGcmUnwrapKey(wrappingKey, iv, utf8ToBytes(a, 'aad'), data, usages, `open '${a}'`);
    }
  }
  const raw = await openRawKey(wrappingKey, sealed, aad);
  try {
    return await importAesGcmKey(raw, usages);
  } finally {
    wipe(raw);
  }
}

/** Opens a sealed key and checks it is 32 bytes (BAD_FORMAT otherwise). The caller wipes the result. */
export async function openRawKey(
  wrappingKey: AesKeyInput,
  sealed: Sealed | string,
  aad: string,
): Promise<Uint8Array> {
  const raw = await open(wrappingKey, sealed, aad);
  if (raw.length !== KEY_BYTES) {
    wipe(raw);
    throw new VaultCryptoError(
      'BAD_FORMAT',
      `'${aad}' holds a ${raw.length}-byte key; the protocol uses 32 bytes`,
    );
  }
  return raw;
}

/**
 * What a vault key may do: encrypt/decrypt, and unwrapKey so that openAesKey opens the items' keys
 * inside WebCrypto (a vault key kept from before lacks it and takes the decrypt-then-import path:
 * the same keys come out).
 */
export const VAULT_KEY_USAGES = ['encrypt', 'decrypt', 'unwrapKey'] as const;

/** Imports 32 raw vault-key bytes as a non-extractable AES-256-GCM CryptoKey (VAULT_KEY_USAGES). */
export async function importVaultKey(raw: Uint8Array): Promise<CryptoKey> {
  return importAesGcmKey(raw, VAULT_KEY_USAGES, 'vault key');
}
