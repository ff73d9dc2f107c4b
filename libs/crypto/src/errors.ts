/**
 * Errors of the Vault crypto protocol, v1.
 *
 * Every refusal is a {@link VaultCryptoError} with a stable `code` the callers switch on.
 * Nothing in this library falls back silently: a failure is always thrown.
 */

export type VaultCryptoErrorCode =
  /** KDF parameters are malformed, below the protocol floors or above its ceilings. */
  | 'KDF_PARAMS_REJECTED'
  /** AES-GCM authentication failed: wrong key, wrong context (AAD), or tampered bytes. */
  | 'DECRYPT_FAILED'
  /** Stored data (a sealed string, a decrypted JSON field, a key length) is malformed. */
  | 'BAD_FORMAT'
  /** A caller-supplied argument is malformed (hex, length, UUID, type). */
  | 'BAD_INPUT'
  /** A decrypt stream ended before the expected number of bytes. */
  | 'STREAM_TRUNCATED'
  /** A decrypt stream received more bytes than expected. */
  | 'STREAM_EXTENDED'
  /** An encrypt stream received a different number of plaintext bytes than announced. */
  | 'SIZE_MISMATCH'
  /** The runtime lacks WebCrypto (e.g. a page served over plain http from a non-local host). */
  | 'UNSUPPORTED_ENVIRONMENT';

export class VaultCryptoError extends Error {
  override readonly name = 'VaultCryptoError';
  readonly code: VaultCryptoErrorCode;

  constructor(code: VaultCryptoErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** True for a VaultCryptoError (optionally with the given code); works across realms (Workers, iframes, Jest). */
export function isVaultCryptoError(e: unknown, code?: VaultCryptoErrorCode): e is VaultCryptoError {
  if (typeof e !== 'object' || e === null) return false;
  const candidate = e as { name?: unknown; code?: unknown };
  if (candidate.name !== 'VaultCryptoError' || typeof candidate.code !== 'string') return false;
  return code === undefined || candidate.code === code;
}

export function badInput(message: string, cause?: unknown): VaultCryptoError {
  return new VaultCryptoError('BAD_INPUT', message, cause === undefined ? undefined : { cause });
}

export function badFormat(message: string, cause?: unknown): VaultCryptoError {
  return new VaultCryptoError('BAD_FORMAT', message, cause === undefined ? undefined : { cause });
}
