/**
 * Fuzzing file metadata (docs/fuzzing.md): what a server hands decryptFileMetadata is untrusted.
 * Whatever the id and the four fields, and whatever a correctly sealed field holds, the answer is
 * the metadata that was sealed or a VaultCryptoError, never another exception. (Round trips:
 * file-metadata.spec.ts.)
 */
import fc from 'fast-check';
import { fuzz, fuzzSettings, hostileString, mutationOf } from '@vault/contracts/testing';
import { AAD } from './aad';
import { utf8ToBytes } from './encoding';
import { isVaultCryptoError } from './errors';
import { decryptFileMetadata, encryptFileMetadata, type EncryptedFileMetadata } from './file-metadata';
import { seal } from './seal';
import type { ItemId } from './types';
import { FILE_ID, OTHER_FILE_ID, vaultKey } from '../test/support/keys';

const META = { name: 'report.pdf', mimeType: 'application/pdf', tags: ['work', 'tax'] };
const FIELDS = ['wrappedKey', 'encryptedName', 'encryptedMimeType', 'encryptedTags'] as const;
const CODES = /^(BAD_FORMAT|BAD_INPUT|DECRYPT_FAILED)$/;

/** The error code of a refusal; anything but a VaultCryptoError fails the property. */
async function refusal(call: () => Promise<unknown>): Promise<string | 'accepted'> {
  try {
    await call();
    return 'accepted';
  } catch (error) {
    if (isVaultCryptoError(error)) return error.code;
    throw error;
  }
}

describe('file metadata (fuzz)', () => {
  let key: CryptoKey;
  let fileKey: CryptoKey;
  let valid: EncryptedFileMetadata;
  beforeAll(async () => {
    key = await vaultKey();
    const { fileKey: k, ...fields } = await encryptFileMetadata(key, FILE_ID, META);
    fileKey = k;
    valid = fields;
  });

  const garbage = fuzzSettings(300);
  it(
    garbage.title('any id and any fields are refused with a VaultCryptoError'),
    async () => {
      const field = fc.oneof(hostileString(), fc.anything());
      await fuzz(
        fc.asyncProperty(
          fc.oneof(fc.constant(FILE_ID), hostileString(40), fc.uuid()),
          fc.oneof(
            fc.record({
              wrappedKey: field,
              encryptedName: field,
              encryptedMimeType: field,
              encryptedTags: field,
            }),
            fc.anything(),
          ),
          async (id, meta) => {
            const code = await refusal(() => decryptFileMetadata(key, id, meta as never));
            expect(code).toMatch(CODES);
          },
        ),
        garbage,
      );
    },
    garbage.timeoutMs,
  );

  const mutated = fuzzSettings(300);
  it(
    mutated.title('a near-valid field, or fields moved around, decrypt to the same metadata or are refused'),
    async () => {
      const oneField = fc.constantFrom(...FIELDS).chain((name) =>
        fc.record({
          name: fc.constant(name),
          value: fc.oneof(
            mutationOf(valid[name]),
            fc.constantFrom(...FIELDS.map((other) => valid[other])),
            fc.anything(),
          ),
        }),
      );
      await fuzz(
        fc.asyncProperty(
          oneField,
          fc.constantFrom(FILE_ID, OTHER_FILE_ID, FILE_ID.toUpperCase(), ` ${FILE_ID}`),
          async ({ name, value }, id) => {
            const meta = { ...valid, [name]: value };
            try {
              expect(await decryptFileMetadata(key, id, meta as never)).toEqual(META);
              // Only the sealed fields themselves, under their own id, open.
              expect(id).toBe(FILE_ID);
              expect(value).toBe(valid[name]);
            } catch (error) {
              if (!isVaultCryptoError(error)) throw error;
              expect(error.code).toMatch(CODES);
            }
          },
        ),
        mutated,
      );
    },
    mutated.timeoutMs,
  );

  const plaintexts = fuzzSettings(200);
  it(
    plaintexts.title(
      'correctly sealed fields holding any bytes decrypt to text and string tags, or BAD_FORMAT',
    ),
    async () => {
      const text = fc.oneof(
        fc.uint8Array({ maxLength: 64 }),
        fc.jsonValue().map((v) => utf8ToBytes(JSON.stringify(v) ?? 'null', 'json')),
        fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => utf8ToBytes(s, 'text')),
      );
      const id = FILE_ID as ItemId;
      await fuzz(
        fc.asyncProperty(text, text, text, async (name, mime, tags) => {
          const meta = {
            wrappedKey: valid.wrappedKey,
            encryptedName: await seal(fileKey, name, AAD.fileField(id, 'name')),
            encryptedMimeType: await seal(fileKey, mime, AAD.fileField(id, 'mime')),
            encryptedTags: await seal(fileKey, tags, AAD.fileField(id, 'tags')),
          };
          try {
            const plain = await decryptFileMetadata(key, id, meta);
            expect(typeof plain.name).toBe('string');
            expect(typeof plain.mimeType).toBe('string');
            expect(Array.isArray(plain.tags) && plain.tags.every((t) => typeof t === 'string')).toBe(true);
          } catch (error) {
            if (!isVaultCryptoError(error, 'BAD_FORMAT')) throw error;
          }
        }),
        plaintexts,
      );
    },
    plaintexts.timeoutMs,
  );

  const inputs = fuzzSettings(200);
  it(
    inputs.title('encryptFileMetadata refuses any malformed id or metadata with BAD_INPUT'),
    async () => {
      await fuzz(
        fc.asyncProperty(
          fc.oneof(fc.constant(FILE_ID), hostileString(40), fc.anything()),
          fc.oneof(
            fc.record({ name: fc.anything(), mimeType: fc.anything(), tags: fc.anything() }),
            fc.anything(),
          ),
          async (id, meta) => {
            const code = await refusal(() => encryptFileMetadata(key, id as string, meta as never));
            if (code !== 'accepted') expect(code).toBe('BAD_INPUT');
          },
        ),
        inputs,
      );
    },
    inputs.timeoutMs,
  );
});
