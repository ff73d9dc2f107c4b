import { decryptThumbnail, encryptThumbnail } from './file-thumbnail';
import { decryptFileMetadata, encryptFileMetadata, unwrapFileKey } from './file-metadata';
import { bytesToHex, hexToBytes, utf8ToBytes } from './encoding';
import { open, seal } from './seal';
import { FILE_ID, OTHER_FILE_ID, vaultKey } from '../test/support/keys';

const picture = new Uint8Array([0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x45, 0x42, 0x50, 9, 8, 7]);
const FILE_KEY_RAW = hexToBytes('101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f');
const IV = hexToBytes('000102030405060708090a0b');

describe('file thumbnail (protocol v1 extension)', () => {
  it('round-trips under the file key made by encryptFileMetadata and unwrapped again', async () => {
    const vk = await vaultKey();
    const { fileKey, ...meta } = await encryptFileMetadata(vk, FILE_ID, {
      name: 'cat.png',
      mimeType: 'image/png',
      tags: [],
    });
    const sealed = await encryptThumbnail(fileKey, FILE_ID, picture);
    expect(sealed).toMatch(/^[0-9a-f]+:[0-9a-f]{24}$/);
    const unwrapped = await unwrapFileKey(vk, FILE_ID, meta.wrappedKey);
    expect(await decryptThumbnail(unwrapped, FILE_ID, sealed)).toEqual(picture);
    // The metadata is unaffected by the extra slot.
    expect((await decryptFileMetadata(vk, FILE_ID, meta)).name).toBe('cat.png');
  });

  it('uses the AAD "vault:v1:file:<fileId>:thumbnail" (a fixed vector any client can check)', async () => {
    const sealed = await encryptThumbnail(FILE_KEY_RAW, FILE_ID, picture, IV);
    expect(sealed.endsWith(`:${bytesToHex(IV)}`)).toBe(true);
    expect(await open(FILE_KEY_RAW, sealed, `vault:v1:file:${FILE_ID}:thumbnail`)).toEqual(picture);
    // Exactly what a plain seal with that AAD produces.
    expect(sealed).toBe(await seal(FILE_KEY_RAW, picture, `vault:v1:file:${FILE_ID}:thumbnail`, IV));
  });

  it('refuses a thumbnail moved to another file, another slot or opened with another key', async () => {
    const sealed = await encryptThumbnail(FILE_KEY_RAW, FILE_ID, picture);
    await expect(decryptThumbnail(FILE_KEY_RAW, OTHER_FILE_ID, sealed)).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
    const otherKey = new Uint8Array(FILE_KEY_RAW);
    otherKey[0] = otherKey[0]! ^ 1;
    await expect(decryptThumbnail(otherKey, FILE_ID, sealed)).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
    // A sealed name cannot be passed off as a thumbnail, nor a thumbnail as a name.
    const name = await seal(FILE_KEY_RAW, utf8ToBytes('cat.png'), `vault:v1:file:${FILE_ID}:name`);
    await expect(decryptThumbnail(FILE_KEY_RAW, FILE_ID, name)).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
    await expect(open(FILE_KEY_RAW, sealed, `vault:v1:file:${FILE_ID}:name`)).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
  });

  it('refuses bad input: empty bytes, non-bytes, a bad file id, a malformed sealed value', async () => {
    await expect(encryptThumbnail(FILE_KEY_RAW, FILE_ID, new Uint8Array(0))).rejects.toMatchObject({
      code: 'BAD_INPUT',
    });
    await expect(
      encryptThumbnail(FILE_KEY_RAW, FILE_ID, 'not bytes' as unknown as Uint8Array),
    ).rejects.toMatchObject({ code: 'BAD_INPUT' });
    await expect(encryptThumbnail(FILE_KEY_RAW, 'FILE', picture)).rejects.toMatchObject({
      code: 'BAD_INPUT',
    });
    await expect(decryptThumbnail(FILE_KEY_RAW, FILE_ID, 'abc:def')).rejects.toMatchObject({
      code: 'BAD_FORMAT',
    });
  });
});
