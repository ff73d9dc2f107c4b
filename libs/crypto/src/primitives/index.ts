/**
 * HAZARDOUS PRIMITIVES: raw AES-256-GCM, HKDF-SHA256, PBKDF2, Argon2id and randomness.
 *
 * Nothing in this folder enforces protocol rules (labels, AAD shapes, KDF floors, IV uniqueness). Only the
 * protocol modules of libs/crypto/src import it; the package index re-exports nothing from here except
 * `randomBytes` and the validated `hkdf` of kdf.ts.
 */
export {
  aesGcmDecrypt,
  aesGcmEncrypt,
  aesGcmUnwrapKey,
  importAesGcmKey,
  isAesGcmKey,
  keyAllows,
  resolveAesKey,
} from './aes-gcm';
export type { AesKeyInput } from './aes-gcm';
export { argon2id } from './argon2id';
export { hkdfAesKey, hkdfBytes } from './hkdf';
export { pbkdf2Sha256 } from './pbkdf2';
export { randomBytes } from './random';
export { errorName, subtle } from './subtle';
