/** HAZARDOUS: raw PBKDF2-HMAC-SHA256 on WebCrypto; no iteration floor is checked here (kdf.ts does that). */
import { ownBytes } from '../validate';
import { subtle } from './subtle';

export async function pbkdf2Sha256(
  password: Uint8Array,
  salt: Uint8Array,
  iterations: number,
  lengthBytes: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const base = await subtle().importKey('raw', ownBytes(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await subtle().deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: ownBytes(salt), iterations },
    base,
    lengthBytes * 8,
  );
  return new Uint8Array(bits);
}
