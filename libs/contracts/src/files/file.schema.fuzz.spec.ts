/**
 * Fuzzing the files contracts (docs/fuzzing.md): the schemas the gateway and the files service
 * check every upload with. Any input is answered by parseFirst with a result, never an exception;
 * a refusal names a message; a well-formed body is taken as it is; a body with one field of the
 * wrong kind, sizes that disagree or a field too many is refused at that field.
 */
import fc from 'fast-check';
import type { z } from 'zod';
import { fuzz, fuzzSettings, hostileString, mutationOf } from '../testing';
import { parseFirst } from '../common/validation';
import {
  FILE_CHUNK_SIZE,
  FILE_MAX_BYTES,
  STORAGE_TYPES,
  completeUploadBodySchema,
  createUploadBodySchema,
  expectedEncryptedSize,
  fileAccessBodySchema,
  fileIdParamSchema,
  fileMetadataSchema,
  rewrapFileKeyBodySchema,
  rewrapFileKeyRequestSchema,
} from './file.schema';

const SCHEMAS: Record<string, z.ZodType> = {
  fileMetadataSchema,
  createUploadBodySchema,
  completeUploadBodySchema,
  fileIdParamSchema,
  rewrapFileKeyBodySchema,
  rewrapFileKeyRequestSchema,
  fileAccessBodySchema,
};

const hex = (min: number, max = min) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: min, maxLength: max });
const sealedText = (maxHex: number) => fc.tuple(hex(1, maxHex), hex(24)).map(([ct, iv]) => `${ct}:${iv}`);
const uuid = fc.uuid({ version: 4 });

/** A well-formed POST /api/files/upload-url body: any size, its encryptedSize, sealed fields. */
const uploadBody = fc
  .record(
    {
      fileId: uuid,
      size: fc.oneof(fc.nat({ max: FILE_MAX_BYTES }), fc.constantFrom(0, 1, FILE_CHUNK_SIZE, FILE_MAX_BYTES)),
      iv: hex(24),
      wrappedKey: fc.tuple(hex(96), hex(24)).map(([ct, iv]) => `${ct}:${iv}`),
      encryptedName: sealedText(200),
      encryptedMimeType: sealedText(80),
      encryptedTags: sealedText(200),
      encryptedThumbnail: sealedText(400),
      storageType: fc.constantFrom(...STORAGE_TYPES),
    },
    {
      requiredKeys: [
        'fileId',
        'size',
        'iv',
        'wrappedKey',
        'encryptedName',
        'encryptedMimeType',
        'encryptedTags',
        'storageType',
      ],
    },
  )
  .map((b) => ({
    ...b,
    chunkSize: FILE_CHUNK_SIZE,
    encryptedSize: expectedEncryptedSize(b.size, FILE_CHUNK_SIZE),
  }));

/** A value of another JSON kind than the field's own. */
function wrongKind(value: unknown): fc.Arbitrary<unknown> {
  return fc
    .oneof(
      fc.string(),
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.nat()),
      fc.object(),
    )
    .filter((v) => typeof v !== typeof value || Array.isArray(v) || v === null);
}

describe('files contracts (fuzz)', () => {
  const anything = fuzzSettings(1_000);
  it(
    anything.title('every files schema answers any input with a result, a refusal with a message'),
    async () => {
      await fuzz(
        fc.property(
          fc.constantFrom(...Object.keys(SCHEMAS)),
          fc.oneof(fc.anything(), fc.jsonValue(), fc.dictionary(hostileString(20), fc.anything())),
          (name, input) => {
            const result = parseFirst(SCHEMAS[name]!, input);
            if (!result.ok) {
              expect(typeof result.message).toBe('string');
              expect(result.message.length).toBeGreaterThan(0);
            }
          },
        ),
        anything,
      );
    },
    anything.timeoutMs,
  );

  const valid = fuzzSettings(300);
  it(
    valid.title('a well-formed upload body is taken as it is, with or without its storage type'),
    async () => {
      await fuzz(
        fc.property(uploadBody, (body) => {
          expect(parseFirst(createUploadBodySchema, body)).toEqual({ ok: true, data: body });
          const { storageType: _storage, ...metadata } = body;
          expect(parseFirst(fileMetadataSchema, metadata)).toEqual({ ok: true, data: metadata });
        }),
        valid,
      );
    },
    valid.timeoutMs,
  );

  const broken = fuzzSettings(500);
  it(
    broken.title('one field of the wrong kind, mutated, or sizes that disagree are refused at that field'),
    async () => {
      const mutated = uploadBody.chain((body) =>
        fc.constantFrom(...(Object.keys(body) as (keyof typeof body)[])).chain((field) =>
          fc.record({
            body: fc.constant(body),
            field: fc.constant(field as string),
            value: fc.oneof(
              wrongKind(body[field]),
              typeof body[field] === 'string' ? mutationOf(body[field] as string) : fc.double(),
            ),
          }),
        ),
      );
      await fuzz(
        fc.property(mutated, ({ body, field, value }) => {
          const result = parseFirst(createUploadBodySchema, { ...body, [field]: value });
          if (result.ok) {
            // Still well-formed (e.g. one hex digit for another): then the sizes still agree.
            expect(result.data.encryptedSize).toBe(
              expectedEncryptedSize(result.data.size, result.data.chunkSize),
            );
            expect(typeof value).toBe(typeof (body as Record<string, unknown>)[field]);
          } else {
            expect([[field], ['encryptedSize']]).toContainEqual(result.path);
          }
        }),
        broken,
      );
    },
    broken.timeoutMs,
  );

  const extra = fuzzSettings(200);
  it(
    extra.title('a field too many is refused by its name'),
    async () => {
      await fuzz(
        fc.property(
          uploadBody,
          fc
            .string({ minLength: 1, maxLength: 20 })
            .filter(
              (k) =>
                !(k in {}) &&
                !/^(fileId|size|encryptedSize|chunkSize|iv|wrappedKey|encrypted\w+|storageType)$/.test(k),
            ),
          fc.jsonValue(),
          (body, key, value) => {
            const result = parseFirst(createUploadBodySchema, { ...body, [key]: value });
            expect(result).toMatchObject({ ok: false, message: expect.stringContaining('Unknown field') });
          },
        ),
        extra,
      );
    },
    extra.timeoutMs,
  );
});
