import fc from 'fast-check';
import {
  decryptFileMetadata,
  encryptFileMetadata,
  rewrapFileKey,
  unwrapFileKey,
  updateFileMetadata,
} from './file-metadata';
import { importVaultKey, open } from './seal';
import { FILE_ID, OTHER_FILE_ID, OTHER_KEY_RAW, vaultKey } from '../test/support/keys';

const meta = { name: 'résumé.pdf', mimeType: 'application/pdf', tags: ['work'] };

describe('file metadata', () => {
  let key: CryptoKey;
  beforeAll(async () => {
    key = await vaultKey();
  });

  it('round-trips (property) and returns a non-extractable file key', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', maxLength: 60 }),
        fc.string({ maxLength: 40 }),
        fc.array(fc.string({ maxLength: 10 }), { maxLength: 4 }),
        async (name, mimeType, tags) => {
          const { fileKey, ...enc } = await encryptFileMetadata(key, FILE_ID, { name, mimeType, tags });
          expect(fileKey.extractable).toBe(false);
          expect(await decryptFileMetadata(key, FILE_ID, enc)).toEqual({ name, mimeType, tags });
        },
      ),
      { numRuns: 30 },
    );
  });

  it('refuses fields swapped between slots or files, and a wrapped key of another file', async () => {
    const { fileKey: _a, ...enc } = await encryptFileMetadata(key, FILE_ID, meta);
    const { fileKey: _b, ...other } = await encryptFileMetadata(key, OTHER_FILE_ID, meta);
    await expect(
      decryptFileMetadata(key, FILE_ID, { ...enc, encryptedName: enc.encryptedMimeType }),
    ).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
    await expect(decryptFileMetadata(key, OTHER_FILE_ID, enc)).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
    await expect(
      decryptFileMetadata(key, FILE_ID, { ...enc, wrappedKey: other.wrappedKey }),
    ).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
    await expect(unwrapFileKey(key, OTHER_FILE_ID, enc.wrappedKey)).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
  });

  it('updateFileMetadata re-seals under the same key; rewrapFileKey moves the key', async () => {
    const { fileKey, ...enc } = await encryptFileMetadata(key, FILE_ID, meta);
    const renamed = await updateFileMetadata(key, FILE_ID, enc.wrappedKey, { ...meta, name: 'cv.pdf' });
    expect((await decryptFileMetadata(key, FILE_ID, { ...renamed, wrappedKey: enc.wrappedKey })).name).toBe(
      'cv.pdf',
    );
    const name = await open(fileKey, renamed.encryptedName, `vault:v1:file:${FILE_ID}:name`);
    expect(new TextDecoder().decode(name)).toBe('cv.pdf');

    const newKey = await importVaultKey(OTHER_KEY_RAW);
    const wrappedKey = await rewrapFileKey(key, newKey, FILE_ID, enc.wrappedKey);
    expect(await decryptFileMetadata(newKey, FILE_ID, { ...enc, wrappedKey })).toEqual(meta);
  });
});
