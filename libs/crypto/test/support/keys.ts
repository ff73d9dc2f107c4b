/** Fixed test keys and the cheapest KDF parameters the protocol accepts. */
import { hexToBytes, importVaultKey } from '../../src/index';
import type { KdfParams } from '../../src/index';

export const PBKDF2_FLOOR: KdfParams = { kdf: 'pbkdf2-sha256', iterations: 600000 };
export const SALT = '000102030405060708090a0b0c0d0e0f';
export const VAULT_KEY_RAW = hexToBytes('a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf');
export const OTHER_KEY_RAW = hexToBytes('0f0e0d0c0b0a09080706050403020100f0e0d0c0b0a090807060504030201000');
export const NOTE_ID = '3f2b8c1e-9d4a-4e6f-8a1b-2c3d4e5f6a7b';
export const OTHER_NOTE_ID = '7a1c2d3e-4f50-4612-9a3b-4c5d6e7f8091';
export const FILE_ID = '9c8b7a65-4321-4fed-bcba-0123456789ab';
export const OTHER_FILE_ID = '0d1e2f30-4152-4637-a8b9-cadbecfd0e1f';

export function vaultKey(): Promise<CryptoKey> {
  return importVaultKey(VAULT_KEY_RAW);
}
