/** Access to WebCrypto, with a clear error where the runtime does not offer it. */
import { VaultCryptoError } from '../errors';

export function subtle(): SubtleCrypto {
  const c = globalThis.crypto as Crypto | undefined;
  if (!c || typeof c.subtle !== 'object' || c.subtle === null) {
    throw new VaultCryptoError(
      'UNSUPPORTED_ENVIRONMENT',
      'WebCrypto (crypto.subtle) is unavailable: Vault needs a secure context (https, or http on localhost) and Node 20+',
    );
  }
  return c.subtle;
}

/** DOMException / Error name, realm-independent. */
export function errorName(e: unknown): string {
  if (typeof e === 'object' && e !== null && typeof (e as { name?: unknown }).name === 'string') {
    return (e as { name: string }).name;
  }
  return typeof e;
}
