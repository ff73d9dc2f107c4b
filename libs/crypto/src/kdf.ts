/**
 * Protocol v1, "Account keys": the password KDF and HKDF.
 *
 * passwordKey = KDF(NFC(password), salt, kdfParams), 32 bytes, where kdfParams is either
 *   {"kdf":"argon2id","memoryKiB":m,"iterations":t,"parallelism":p}  (default 65536/3/4)
 *   {"kdf":"pbkdf2-sha256","iterations":n}
 * Parameters come from the server, which may be hostile: they are checked against the protocol floors (so a
 * server cannot weaken the KDF) and ceilings (so it cannot freeze the device) before anything is derived.
 */
import { VaultCryptoError } from './errors';
import { utf8ToBytes } from './encoding';
import { argon2id, hkdfBytes, pbkdf2Sha256 } from './primitives';
import type { Argon2idParams, BytesOrHex, KdfParams } from './types';
import { KEY_BYTES, SALT_BYTES, bytesOrHex, requireString, wipe } from './validate';

export const DEFAULT_KDF_PARAMS: Readonly<Argon2idParams> = Object.freeze({
  kdf: 'argon2id',
  memoryKiB: 65536,
  iterations: 3,
  parallelism: 4,
});

/** Protocol floors and ceilings. `parallelism` has no ceiling in the doc; 255 is ours (see README). */
export const KDF_LIMITS = Object.freeze({
  argon2id: Object.freeze({
    memoryKiB: Object.freeze({ min: 19456, max: 1048576 }),
    iterations: Object.freeze({ min: 2, max: 10 }),
    parallelism: Object.freeze({ min: 1, max: 255 }),
  }),
  'pbkdf2-sha256': Object.freeze({
    iterations: Object.freeze({ min: 600000, max: 10000000 }),
  }),
});

function reject(message: string): VaultCryptoError {
  return new VaultCryptoError('KDF_PARAMS_REJECTED', message);
}

function checkField(
  obj: Record<string, unknown>,
  kdf: string,
  field: string,
  limits: { min: number; max: number },
): number {
  const v = obj[field];
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) {
    throw reject(
      `KDF parameters malformed: ${kdf} ${field} must be an integer, got ${JSON.stringify(v) ?? typeof v}`,
    );
  }
  if (v < limits.min)
    throw reject(`KDF parameters below the protocol floor: ${kdf} ${field} ${v} < ${limits.min}`);
  if (v > limits.max)
    throw reject(`KDF parameters above the protocol ceiling: ${kdf} ${field} ${v} > ${limits.max}`);
  return v;
}

function checkKeys(obj: Record<string, unknown>, kdf: string, allowed: readonly string[]): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key))
      throw reject(`KDF parameters malformed: unexpected field '${key}' for ${kdf}`);
  }
}

/**
 * Checks KDF parameters (typically straight from the prelogin JSON) and returns a clean copy.
 * Refuses: non-objects, unknown `kdf`, missing/extra/non-integer fields, values below floors or above ceilings.
 */
export function validateKdfParams(p: unknown): KdfParams {
  if (typeof p !== 'object' || p === null || Array.isArray(p)) {
    throw reject('KDF parameters malformed: expected an object');
  }
  const obj = p as Record<string, unknown>;
  const kdf = obj['kdf'];
  if (kdf === 'argon2id') {
    checkKeys(obj, kdf, ['kdf', 'memoryKiB', 'iterations', 'parallelism']);
    const L = KDF_LIMITS.argon2id;
    const memoryKiB = checkField(obj, kdf, 'memoryKiB', L.memoryKiB);
    const iterations = checkField(obj, kdf, 'iterations', L.iterations);
    const parallelism = checkField(obj, kdf, 'parallelism', L.parallelism);
    if (memoryKiB < 8 * parallelism) {
      throw reject(
        `KDF parameters malformed: argon2id memoryKiB ${memoryKiB} < 8 * parallelism ${parallelism}`,
      );
    }
    return { kdf, memoryKiB, iterations, parallelism };
  }
  if (kdf === 'pbkdf2-sha256') {
    checkKeys(obj, kdf, ['kdf', 'iterations']);
    const iterations = checkField(obj, kdf, 'iterations', KDF_LIMITS['pbkdf2-sha256'].iterations);
    return { kdf, iterations };
  }
  throw reject(
    `KDF parameters name an unknown KDF: ${JSON.stringify(kdf) ?? typeof kdf} (allowed: argon2id, pbkdf2-sha256)`,
  );
}

/**
 * passwordKey = KDF(NFC(password), salt, params): 32 bytes. The salt is 16 bytes (hex as stored, or raw).
 * The caller should wipe the result (`.fill(0)`) once the HKDF outputs are derived.
 */
export async function derivePasswordKey(
  password: string,
  saltHex: BytesOrHex,
  params: KdfParams,
): Promise<Uint8Array> {
  const p = validateKdfParams(params);
  requireString(password, 'password', { nonEmpty: true });
  const salt = bytesOrHex(saltHex, 'salt', SALT_BYTES);
  const pw = utf8ToBytes(password.normalize('NFC'), 'password');
  try {
    if (p.kdf === 'argon2id') return await argon2id(pw, salt, p, KEY_BYTES);
    return await pbkdf2Sha256(pw, salt, p.iterations, KEY_BYTES);
  } finally {
    wipe(pw);
  }
}

/** HKDF-SHA256(ikm, salt = empty, info = utf8(info)) → 32 bytes. `ikm` must be 32 bytes (every protocol use is). */
export async function hkdf(ikm: Uint8Array, info: string): Promise<Uint8Array> {
  return hkdfBytes(ikm, info);
}

/** The HKDF labels of protocol v1. */
export const HKDF_INFO = Object.freeze({
  auth: 'vault:v1:auth',
  wrap: 'vault:v1:wrap',
  recoveryAuth: 'vault:v1:recovery-auth',
  recoveryWrap: 'vault:v1:recovery-wrap',
  answersAuth: 'vault:v1:answers-auth',
});
