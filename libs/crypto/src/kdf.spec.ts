import { DEFAULT_KDF_PARAMS, derivePasswordKey, hkdf, validateKdfParams } from './kdf';
import { bytesToHex } from './encoding';
import { isVaultCryptoError } from './errors';
import { PBKDF2_FLOOR, SALT } from '../test/support/keys';

function rejection(p: unknown): string {
  try {
    validateKdfParams(p);
  } catch (e) {
    if (isVaultCryptoError(e, 'KDF_PARAMS_REJECTED')) return e.message;
    throw e;
  }
  throw new Error('accepted');
}

describe('kdf', () => {
  describe(validateKdfParams.name, () => {
    it('accepts the default and the documented alternative, returning a clean copy', () => {
      expect(validateKdfParams({ kdf: 'argon2id', memoryKiB: 65536, iterations: 3, parallelism: 4 })).toEqual(
        DEFAULT_KDF_PARAMS,
      );
      expect(validateKdfParams({ kdf: 'pbkdf2-sha256', iterations: 600000 })).toEqual(PBKDF2_FLOOR);
      expect(
        validateKdfParams({ kdf: 'argon2id', memoryKiB: 19456, iterations: 2, parallelism: 1 }),
      ).toBeTruthy();
      expect(
        validateKdfParams({ kdf: 'argon2id', memoryKiB: 1048576, iterations: 10, parallelism: 1 }),
      ).toBeTruthy();
      expect(validateKdfParams({ kdf: 'pbkdf2-sha256', iterations: 10000000 })).toBeTruthy();
    });

    it('refuses values below the protocol floors with a clear message', () => {
      expect(rejection({ kdf: 'argon2id', memoryKiB: 1024, iterations: 3, parallelism: 4 })).toBe(
        'KDF parameters below the protocol floor: argon2id memoryKiB 1024 < 19456',
      );
      expect(rejection({ kdf: 'argon2id', memoryKiB: 65536, iterations: 1, parallelism: 4 })).toBe(
        'KDF parameters below the protocol floor: argon2id iterations 1 < 2',
      );
      expect(rejection({ kdf: 'argon2id', memoryKiB: 65536, iterations: 3, parallelism: 0 })).toBe(
        'KDF parameters below the protocol floor: argon2id parallelism 0 < 1',
      );
      expect(rejection({ kdf: 'pbkdf2-sha256', iterations: 599999 })).toBe(
        'KDF parameters below the protocol floor: pbkdf2-sha256 iterations 599999 < 600000',
      );
    });

    it('refuses values above the protocol ceilings', () => {
      expect(rejection({ kdf: 'argon2id', memoryKiB: 1048577, iterations: 3, parallelism: 4 })).toBe(
        'KDF parameters above the protocol ceiling: argon2id memoryKiB 1048577 > 1048576',
      );
      expect(rejection({ kdf: 'argon2id', memoryKiB: 65536, iterations: 11, parallelism: 4 })).toMatch(
        /iterations 11 > 10/,
      );
      expect(rejection({ kdf: 'pbkdf2-sha256', iterations: 10000001 })).toMatch(
        /ceiling: pbkdf2-sha256 iterations/,
      );
      expect(rejection({ kdf: 'argon2id', memoryKiB: 65536, iterations: 3, parallelism: 256 })).toMatch(
        /parallelism 256 > 255/,
      );
    });

    it('refuses unknown KDFs, extra fields, missing or non-integer fields and non-objects', () => {
      expect(rejection({ kdf: 'scrypt', N: 1 << 15 })).toMatch(/unknown KDF: "scrypt"/);
      expect(rejection({ kdf: 'PBKDF2-SHA256', iterations: 600000 })).toMatch(/unknown KDF/);
      expect(rejection({ iterations: 600000 })).toMatch(/unknown KDF/);
      expect(rejection({ kdf: 'pbkdf2-sha256', iterations: 600000, hash: 'SHA-1' })).toMatch(
        /unexpected field 'hash'/,
      );
      expect(rejection({ ...DEFAULT_KDF_PARAMS, salt: 'x' })).toMatch(/unexpected field 'salt'/);
      expect(rejection({ kdf: 'argon2id', memoryKiB: 65536, iterations: 3 })).toMatch(
        /parallelism must be an integer/,
      );
      expect(rejection({ kdf: 'pbkdf2-sha256', iterations: '600000' })).toMatch(/must be an integer/);
      expect(rejection({ kdf: 'pbkdf2-sha256', iterations: 600000.5 })).toMatch(/must be an integer/);
      expect(rejection({ kdf: 'pbkdf2-sha256', iterations: Infinity })).toMatch(/must be an integer/);
      expect(rejection(null)).toMatch(/expected an object/);
      expect(rejection([DEFAULT_KDF_PARAMS])).toMatch(/expected an object/);
      expect(rejection('argon2id')).toMatch(/expected an object/);
    });
  });

  describe(derivePasswordKey.name, () => {
    it('refuses hostile parameters before deriving anything', async () => {
      const started = Date.now();
      await expect(
        derivePasswordKey('pw', SALT, {
          kdf: 'argon2id',
          memoryKiB: 4 * 1048576,
          iterations: 3,
          parallelism: 4,
        }),
      ).rejects.toMatchObject({ code: 'KDF_PARAMS_REJECTED' });
      expect(Date.now() - started).toBeLessThan(1000);
    });

    it('checks the salt and the password', async () => {
      await expect(derivePasswordKey('pw', '0011', PBKDF2_FLOOR)).rejects.toMatchObject({
        code: 'BAD_INPUT',
      });
      await expect(derivePasswordKey('pw', SALT.toUpperCase(), PBKDF2_FLOOR)).rejects.toMatchObject({
        code: 'BAD_INPUT',
      });
      await expect(derivePasswordKey('', SALT, PBKDF2_FLOOR)).rejects.toMatchObject({ code: 'BAD_INPUT' });
    });

    it('takes the salt as hex or bytes, with the same result', async () => {
      const a = await derivePasswordKey('pw', SALT, PBKDF2_FLOOR);
      const b = await derivePasswordKey(
        'pw',
        Uint8Array.from({ length: 16 }, (_, i) => i),
        PBKDF2_FLOOR,
      );
      expect(bytesToHex(a)).toBe(bytesToHex(b));
      expect(a).toHaveLength(32);
    });
  });

  describe(hkdf.name, () => {
    it('matches RFC 5869 style HKDF-SHA256 with an empty salt and only takes 32-byte input', async () => {
      const ikm = new Uint8Array(32).fill(0x0b);
      expect(bytesToHex(await hkdf(ikm, 'vault:v1:auth'))).toHaveLength(64);
      expect(bytesToHex(await hkdf(ikm, 'a'))).not.toBe(bytesToHex(await hkdf(ikm, 'b')));
      await expect(hkdf(new Uint8Array(16), 'x')).rejects.toMatchObject({ code: 'BAD_INPUT' });
      await expect(hkdf(ikm, '')).rejects.toMatchObject({ code: 'BAD_INPUT' });
    });
  });
});
