import { parseFirst } from '../common/validation';
import {
  FILE_MAX_BYTES,
  UPLOAD_PART_MAX_BYTES,
  createUploadBodySchema,
  createUploadResponseSchema,
  expectedEncryptedSize,
  fileAccessBodySchema,
} from './file.schema';

const sealedHex = (bytes: number) => `${'ab'.repeat(bytes)}:${'0'.repeat(24)}`;

function body(overrides: Record<string, unknown> = {}) {
  return {
    fileId: '0b6a8d3e-5c1f-4a2b-9d7e-1f2a3b4c5d6e',
    size: 65_537,
    encryptedSize: 65_537 + 32,
    chunkSize: 65_536,
    iv: '00'.repeat(12),
    wrappedKey: `${'cd'.repeat(48)}:${'1'.repeat(24)}`,
    encryptedName: sealedHex(20),
    encryptedMimeType: sealedHex(26),
    encryptedTags: sealedHex(18),
    storageType: 'local',
    ...overrides,
  };
}

describe('files contracts', () => {
  it('computes encryptedSize as the protocol does (an empty file is one empty chunk)', () => {
    expect(expectedEncryptedSize(0, 65_536)).toBe(16);
    expect(expectedEncryptedSize(1, 65_536)).toBe(17);
    expect(expectedEncryptedSize(65_536, 65_536)).toBe(65_552);
    expect(expectedEncryptedSize(65_537, 65_536)).toBe(65_569);
    expect(expectedEncryptedSize(FILE_MAX_BYTES, 65_536)).toBe(FILE_MAX_BYTES + 1600 * 16);
  });

  it('takes a well-formed upload', () => {
    expect(parseFirst(createUploadBodySchema, body()).ok).toBe(true);
  });

  it.each([
    [
      { size: FILE_MAX_BYTES + 1, encryptedSize: expectedEncryptedSize(FILE_MAX_BYTES + 1, 65_536) },
      'File size exceeds maximum allowed size of 100MB',
    ],
    [{ encryptedSize: 65_537 + 16 }, 'encryptedSize must equal size + 16 * max(1, ceil(size / chunkSize))'],
    [{ chunkSize: 4096 }, 'chunkSize must be 65536'],
    [{ iv: 'zz'.repeat(12) }, 'Invalid iv'],
    [{ encryptedName: 'plain name.txt' }, 'Invalid encrypted name'],
    [{ storageType: 'ftp' }, 'Unknown storage type'],
    [{ fileId: 'not-a-uuid' }, 'Invalid id'],
    [{ fileName: 'leak.txt' }, 'Unknown field: fileName'],
  ])('refuses %j with its message', (overrides, message) => {
    const result = parseFirst(createUploadBodySchema, body(overrides));
    expect(result).toMatchObject({ ok: false, message });
  });

  it('asks for the password when authKey is missing or malformed', () => {
    expect(parseFirst(fileAccessBodySchema, {})).toMatchObject({
      ok: false,
      message: 'Please enter your password',
    });
    expect(parseFirst(fileAccessBodySchema, { authKey: 'ab' })).toMatchObject({ ok: false });
  });

  it('the upload-url answer may carry partSize, a positive whole number of bytes (16 MiB)', () => {
    const answer = { fileId: 'f', uploadUrl: '/api/files/blob/a/b', expiresAt: '2026-01-01T00:00:00.000Z' };
    expect(createUploadResponseSchema.safeParse(answer).success).toBe(true);
    expect(createUploadResponseSchema.parse({ ...answer, partSize: UPLOAD_PART_MAX_BYTES }).partSize).toBe(
      16 * 1024 * 1024,
    );
    for (const partSize of [0, -1, 1.5, '16']) {
      expect(createUploadResponseSchema.safeParse({ ...answer, partSize }).success).toBe(false);
    }
  });

  it('and, for S3, partUrls: one URL per part, at least one', () => {
    const answer = { fileId: 'f', uploadUrl: 'https://s3/b/k', expiresAt: '2026-01-01T00:00:00.000Z' };
    const parsed = createUploadResponseSchema.parse({
      ...answer,
      partSize: 1,
      partUrls: ['https://s3/1', 'https://s3/2'],
    });
    expect(parsed.partUrls).toEqual(['https://s3/1', 'https://s3/2']);
    for (const partUrls of [[], 'https://s3/1', [1]]) {
      expect(createUploadResponseSchema.safeParse({ ...answer, partUrls }).success).toBe(false);
    }
  });
});
