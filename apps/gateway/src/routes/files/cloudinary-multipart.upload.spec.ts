import { randomBytes, randomUUID } from 'node:crypto';
import {
  ErrorCode,
  expectedEncryptedSize,
  FILE_CHUNK_SIZE,
  FILE_SIZE_EXCEEDED,
  VaultError,
} from '@vault/contracts';
import {
  metadataOfFields,
  METADATA_FIELDS,
  NUMERIC_METADATA_FIELDS,
  REQUIRED_METADATA_FIELDS,
} from './cloudinary-multipart.upload';

const sealed = (bytes = 24) =>
  `${randomBytes(bytes + 16).toString('hex')}:${randomBytes(12).toString('hex')}`;

/** The text fields of a valid form, as a browser's FormData sends them. */
function formFields(size = 1000): Record<string, string> {
  return {
    fileId: randomUUID(),
    size: String(size),
    encryptedSize: String(expectedEncryptedSize(size, FILE_CHUNK_SIZE)),
    chunkSize: String(FILE_CHUNK_SIZE),
    iv: randomBytes(12).toString('hex'),
    wrappedKey: sealed(32),
    encryptedName: sealed(),
    encryptedMimeType: sealed(),
    encryptedTags: sealed(),
  };
}

function failure(fields: Record<string, string>): VaultError {
  try {
    metadataOfFields(fields);
  } catch (error) {
    if (error instanceof VaultError) return error;
    throw error;
  }
  throw new Error('expected the fields to be refused');
}

describe(metadataOfFields.name, () => {
  it('knows the form from the contract: its fields, the required ones, and which carry numbers', () => {
    expect([...METADATA_FIELDS].sort()).toEqual(
      [
        'fileId',
        'size',
        'encryptedSize',
        'chunkSize',
        'iv',
        'wrappedKey',
        'encryptedName',
        'encryptedMimeType',
        'encryptedTags',
        'encryptedThumbnail',
      ].sort(),
    );
    expect(REQUIRED_METADATA_FIELDS).not.toContain('encryptedThumbnail');
    expect([...NUMERIC_METADATA_FIELDS].sort()).toEqual(['chunkSize', 'encryptedSize', 'size']);
  });

  it('turns the decimal text of the numeric fields into numbers and keeps the rest as sent', () => {
    const fields = formFields(1000);
    const body = metadataOfFields(fields);
    expect(body).toEqual({
      ...fields,
      size: 1000,
      encryptedSize: 1016,
      chunkSize: FILE_CHUNK_SIZE,
    });
  });

  it.each<[string, (f: Record<string, string>) => Record<string, string>, string]>([
    ['a size that is not a number', (f) => ({ ...f, size: '1e3' }), 'size must be a number of bytes'],
    [
      'a size over 100 MiB',
      (f) => ({
        ...f,
        size: '104857601',
        encryptedSize: String(expectedEncryptedSize(104857601, FILE_CHUNK_SIZE)),
      }),
      FILE_SIZE_EXCEEDED,
    ],
    [
      'sizes that disagree',
      (f) => ({ ...f, encryptedSize: '1000' }),
      'encryptedSize must equal size + 16 * max(1, ceil(size / chunkSize))',
    ],
    ['another chunk size', (f) => ({ ...f, chunkSize: '1024' }), `chunkSize must be ${FILE_CHUNK_SIZE}`],
    ['a plaintext name', (f) => ({ ...f, encryptedName: 'report.pdf' }), 'Invalid encrypted name'],
    ['the spec’s plaintext fileName', (f) => ({ ...f, fileName: 'report.pdf' }), 'Unknown field: fileName'],
    [
      'a storageType (the route decides it)',
      (f) => ({ ...f, storageType: 's3' }),
      'Unknown field: storageType',
    ],
  ])('answers 400 to %s, with the schema’s message', (_label, change, message) => {
    const error = failure(change(formFields()));
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(error.message).toBe(message);
  });

  it('never lets a __proto__ field reach an object prototype', () => {
    const fields = Object.assign(Object.create(null) as Record<string, string>, formFields());
    fields['__proto__'] = 'x';
    expect(failure(fields).message).toBe('Unknown field: __proto__');
  });
});
