/** Randomness from the platform CSPRNG (crypto.getRandomValues) only. */
import { VaultCryptoError, badInput } from '../errors';

const MAX_GET_RANDOM = 65536;

export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  if (!Number.isSafeInteger(length) || length < 0)
    throw badInput('randomBytes length must be a non-negative integer');
  const c = globalThis.crypto as Crypto | undefined;
  if (!c || typeof c.getRandomValues !== 'function') {
    throw new VaultCryptoError(
      'UNSUPPORTED_ENVIRONMENT',
      'crypto.getRandomValues is unavailable in this runtime',
    );
  }
  const out = new Uint8Array(length);
  for (let off = 0; off < length; off += MAX_GET_RANDOM) {
    c.getRandomValues(out.subarray(off, Math.min(length, off + MAX_GET_RANDOM)));
  }
  return out;
}
