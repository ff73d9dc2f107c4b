/**
 * Fuzzing the sealed-string parser (docs/fuzzing.md): `hex(ct‖tag):hex(iv)` as stored data meets
 * it, from any server or file. Whatever the string, parseSealed and open answer the format or
 * the authentication failure as a VaultCryptoError, never another exception, and open never
 * returns anything but the sealed plaintext. (Round trips of seal/open: seal.spec.ts.)
 */
import fc from 'fast-check';
import { fuzz, fuzzSettings, hostileString, mutationOf } from '@vault/contracts/testing';
import { bytesToHex } from './encoding';
import { isVaultCryptoError } from './errors';
import { isSealed, open, parseSealed, seal } from './seal';
import { vaultKey } from '../test/support/keys';

const AAD = 'vault:v1:fuzz';

/** The outcome of a call: its value, or its error when it is a VaultCryptoError (anything else fails the property). */
async function outcome<T>(call: () => T | Promise<T>): Promise<{ value: T } | { code: string }> {
  try {
    return { value: await call() };
  } catch (error) {
    if (isVaultCryptoError(error)) return { code: error.code };
    throw error;
  }
}

/** Strings that look like the notation: hex pieces of any length around any separator. */
const notationLike = fc
  .tuple(
    fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), maxLength: 80 }),
    fc.constantFrom(':', '::', ';', '', ' : ', ':\n'),
    fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), maxLength: 30 }),
  )
  .map(([data, sep, iv]) => `${data}${sep}${iv}`);

describe('sealed-string parser (fuzz)', () => {
  let key: CryptoKey;
  let sealed: string;
  const plaintext = new TextEncoder().encode('fuzzed secret');
  beforeAll(async () => {
    key = await vaultKey();
    sealed = await seal(key, plaintext, AAD);
  });

  const parse = fuzzSettings(2_000);
  it(
    parse.title('parseSealed: any value is whole bytes or BAD_FORMAT, exactly as isSealed says'),
    async () => {
      await fuzz(
        fc.property(fc.oneof(hostileString(), notationLike, fc.anything()), (value) => {
          const sealedShape = isSealed(value);
          try {
            const { data, iv } = parseSealed(value);
            expect(sealedShape).toBe(true);
            expect(iv).toHaveLength(12);
            expect(data.length).toBeGreaterThanOrEqual(16);
            expect(`${bytesToHex(data)}:${bytesToHex(iv)}`).toBe(value);
          } catch (error) {
            if (!isVaultCryptoError(error, 'BAD_FORMAT')) throw error;
            expect(sealedShape).toBe(false);
          }
        }),
        parse,
      );
    },
    parse.timeoutMs,
  );

  const notation = fuzzSettings(500);
  it(
    notation.title('parseSealed inverts the notation for any bytes'),
    async () => {
      await fuzz(
        fc.property(
          fc.uint8Array({ minLength: 16, maxLength: 300 }),
          fc.uint8Array({ minLength: 12, maxLength: 12 }),
          (data, iv) => {
            const parsed = parseSealed(`${bytesToHex(data)}:${bytesToHex(iv)}`);
            expect(parsed.data).toEqual(data);
            expect(parsed.iv).toEqual(iv);
          },
        ),
        notation,
      );
    },
    notation.timeoutMs,
  );

  const arbitrary = fuzzSettings(300);
  it(
    arbitrary.title('open: any string is BAD_FORMAT or DECRYPT_FAILED, never another error'),
    async () => {
      await fuzz(
        fc.asyncProperty(fc.oneof(hostileString(), notationLike), async (text) => {
          const result = await outcome(() => open(key, text, AAD));
          expect(result).toEqual({ code: expect.stringMatching(/^(BAD_FORMAT|DECRYPT_FAILED)$/) });
        }),
        arbitrary,
      );
    },
    arbitrary.timeoutMs,
  );

  const mutated = fuzzSettings(400);
  it(
    mutated.title('open: a near-valid mutation opens to the same plaintext or is refused'),
    async () => {
      await fuzz(
        fc.asyncProperty(mutationOf(sealed), async (text) => {
          const result = await outcome(() => open(key, text, AAD));
          if ('value' in result) {
            // Only the sealed value itself opens: GCM lets no changed byte through.
            expect(text).toBe(sealed);
            expect(result.value).toEqual(plaintext);
          } else {
            expect(result.code).toMatch(/^(BAD_FORMAT|DECRYPT_FAILED)$/);
            expect(isSealed(text) ? 'DECRYPT_FAILED' : 'BAD_FORMAT').toBe(result.code);
          }
        }),
        mutated,
      );
    },
    mutated.timeoutMs,
  );
});
