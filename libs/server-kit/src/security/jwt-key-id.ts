import { calculateJwkThumbprint, exportJWK, type KeyLike } from 'jose';

/**
 * The `kid` of an access-token signing key: the RFC 7638 SHA-256 thumbprint of its public key.
 * Auth puts it in every token's header; the gateway picks the verifying key by it, which lets it
 * hold the old and the new public key while the signing key is rotated (docs/operations.md "Keys
 * and secrets"). Derived from the key itself, so auth and the gateway cannot disagree about it.
 */
export async function jwtKeyId(publicKey: KeyLike): Promise<string> {
  return calculateJwkThumbprint(await exportJWK(publicKey), 'sha256');
}
