// @vitest-environment node
import { createHash } from 'node:crypto';
import { completeUploadBodySchema } from '@vault/contracts';
import {
  FILE_CHUNK_SIZE,
  bytesToHex,
  decryptFileBytes,
  importVaultKey,
  newItemId,
  randomBytes,
  unwrapFileKey,
} from '@vault/crypto';
import { createSHA256 } from 'hash-wasm';
import { describe, expect, it } from 'vitest';
import { BATCH_BYTES, encryptBlob } from './files-chunks';
import { prepareUpload } from '../testing/prepare-upload';
import type { UploadEnvironment } from './files-ops';
import { MemoryStaging } from './files-staging';

/**
 * The opt-in malware fingerprint (docs/architecture.md "Virus scanning of end-to-end encrypted files"): the plaintext's SHA-256,
 * hashed batch by batch while the upload worker seals the file.
 */

const env: Pick<UploadEnvironment, 'openStaging' | 'makeThumbnail'> = {
  openStaging: async () => new MemoryStaging(256 * 1024),
  makeThumbnail: async () => null,
};

const nodeSha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const input = (plain: Uint8Array, fingerprint?: boolean) => ({
  file: new Blob([plain as BlobPart]),
  name: 'f.bin',
  mimeType: 'application/octet-stream',
  tags: [],
  thumbnail: false,
  ...(fingerprint === undefined ? {} : { fingerprint }),
});

describe('plaintext fingerprint while sealing', () => {
  it.each([0, 1, 65_536, 65_537, 2 * BATCH_BYTES + 3 * FILE_CHUNK_SIZE + 17])(
    'a %i-byte file: the SHA-256 equals node crypto’s, and the ciphertext still opens back',
    async (size) => {
      const vaultKey = await importVaultKey(randomBytes(32));
      const plain = randomBytes(size);
      const prepared = await prepareUpload(vaultKey, input(plain, true), undefined, env);
      expect(prepared.plaintextSha256).toBe(nodeSha256(plain));
      // The body upload-complete sends is the one the gateway accepts.
      expect(
        completeUploadBodySchema.safeParse({
          fileId: prepared.fields.fileId,
          plaintextSha256: prepared.plaintextSha256,
        }).success,
      ).toBe(true);
      const { fields } = prepared;
      const fileKey = await unwrapFileKey(vaultKey, fields.fileId, fields.wrappedKey);
      const back = await decryptFileBytes(
        { fileKey, fileId: fields.fileId, iv: fields.iv, size: fields.size },
        new Uint8Array(await prepared.ciphertext.arrayBuffer()),
      );
      expect(Buffer.from(back).equals(Buffer.from(plain))).toBe(true);
    },
  );

  it('is neither computed nor returned when the check is off (or not asked for)', async () => {
    const vaultKey = await importVaultKey(randomBytes(32));
    const plain = randomBytes(1000);
    const off = await prepareUpload(vaultKey, input(plain, false), undefined, env);
    const absent = await prepareUpload(vaultKey, input(plain), undefined, env);
    expect('plaintextSha256' in off).toBe(false);
    expect('plaintextSha256' in absent).toBe(false);
  });

  it('sees each batch once, in file order, before it is wiped: one read, memory of one batch', async () => {
    const size = 5 * FILE_CHUNK_SIZE + 99;
    const plain = randomBytes(size);
    const fileKey = await crypto.subtle.importKey('raw', randomBytes(32), 'AES-GCM', false, ['encrypt']);
    const hasher = await createSHA256();
    hasher.init();
    const seen: number[] = [];
    await encryptBlob(
      new Blob([plain as BlobPart]),
      {
        fileKey,
        fileId: newItemId(),
        iv: bytesToHex(randomBytes(12)),
        size,
        chunkSize: FILE_CHUNK_SIZE,
        batchBytes: 2 * FILE_CHUNK_SIZE,
      },
      () => undefined,
      (batch) => {
        // The batch's buffer is zeroed once sealed: hashing later would not match.
        seen.push(batch.length);
        hasher.update(batch);
      },
    );
    expect(seen).toEqual([2 * FILE_CHUNK_SIZE, 2 * FILE_CHUNK_SIZE, FILE_CHUNK_SIZE + 99]);
    expect(hasher.digest('hex')).toBe(nodeSha256(plain));
  });
});
