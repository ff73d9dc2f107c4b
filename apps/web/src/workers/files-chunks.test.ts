// @vitest-environment node
import {
  FILE_CHUNK_SIZE,
  bytesToHex,
  concatBytes,
  decryptFileBytes,
  encryptFileBytes,
  newItemId,
  randomBytes,
} from '@vault/crypto';
import { describe, expect, it } from 'vitest';
import { piecewiseStream } from '../testing/file-bytes';
import { createBatchedDecryptStream, encryptBlob, type ChunkParams } from './files-chunks';

const CHUNK = FILE_CHUNK_SIZE;

async function fileKey(): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', randomBytes(32), { name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
}

async function params(size: number, batchBytes?: number): Promise<ChunkParams> {
  const p: ChunkParams = {
    fileKey: await fileKey(),
    fileId: newItemId(),
    iv: bytesToHex(randomBytes(12)),
    size,
    chunkSize: CHUNK,
  };
  if (batchBytes !== undefined) p.batchBytes = batchBytes;
  return p;
}

async function sealAll(plain: Uint8Array, p: ChunkParams): Promise<{ bytes: Uint8Array; writes: number[] }> {
  const parts: Uint8Array[] = [];
  await encryptBlob(new Blob([plain as BlobPart]), p, (sealed) => void parts.push(sealed));
  return { bytes: concatBytes(parts), writes: parts.map((x) => x.length) };
}

/** Runs stored bytes, cut into `piece`-sized pieces, through the batched decrypt transform. */
async function openAll(stored: Uint8Array, p: ChunkParams, piece = 10_000) {
  const parts: Uint8Array[] = [];
  await piecewiseStream(stored, piece)
    .stream.pipeThrough(createBatchedDecryptStream(p))
    .pipeTo(
      new WritableStream({
        write(chunk) {
          parts.push(chunk);
        },
      }),
    );
  return { bytes: concatBytes(parts), pieces: parts.map((x) => x.length) };
}

/** Byte equality without vitest's element-by-element diffing (slow on large arrays). */
const same = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

describe('batched file chunks (same bytes as @vault/crypto file streams)', () => {
  it.each([0, 1, CHUNK - 1, CHUNK, 3 * CHUNK + 1234, 9 * CHUNK])(
    'a %i-byte file seals to exactly what createEncryptStream makes, and opens back',
    async (size) => {
      const p = await params(size, 2 * CHUNK);
      const plain = randomBytes(size);
      const { bytes, writes } = await sealAll(plain, p);
      const reference = await encryptFileBytes({ fileKey: p.fileKey, fileId: p.fileId, iv: p.iv }, plain);
      expect(same(bytes, reference)).toBe(true);
      // Whole batches of two chunks (the last may be shorter): few, large writes.
      expect(writes.length).toBe(Math.max(1, Math.ceil(size / (2 * CHUNK))));
      const opened = await openAll(reference, p);
      expect(same(opened.bytes, plain)).toBe(true);
      expect(opened.pieces.length).toBeLessThanOrEqual(Math.max(1, Math.ceil(size / (2 * CHUNK))));
      // And the library's own decryptor accepts what the batches made.
      expect(same(await decryptFileBytes({ ...p }, bytes), plain)).toBe(true);
    },
  );

  it('hands out batches of about 4 MiB by default', async () => {
    const p = await params(10 * 1024 * 1024 + 5);
    const { writes } = await sealAll(randomBytes(p.size), p);
    expect(writes.length).toBe(3);
    expect(writes[0]).toBe(4 * 1024 * 1024 + 64 * 16);
  });

  it('refuses a file whose size is not the announced one', async () => {
    const p = await params(100);
    await expect(encryptBlob(new Blob([randomBytes(99)]), p, () => undefined)).rejects.toMatchObject({
      code: 'SIZE_MISMATCH',
    });
  });

  it('a tampered byte fails the batch with DECRYPT_FAILED and releases none of its plaintext', async () => {
    const p = await params(5 * CHUNK, 2 * CHUNK);
    const { bytes } = await sealAll(randomBytes(p.size), p);
    const tampered = bytes.slice();
    tampered[2 * (CHUNK + 16) + 7]! ^= 1;
    const parts: Uint8Array[] = [];
    const run = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(tampered);
        c.close();
      },
    })
      .pipeThrough(createBatchedDecryptStream(p))
      .pipeTo(new WritableStream({ write: (c) => void parts.push(c) }));
    await expect(run).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
    // Only the first batch (chunks 0 and 1) verified; the altered chunk 2's batch never came out.
    expect(concatBytes(parts).length).toBe(2 * CHUNK);
  });

  it('swapped chunks fail authentication', async () => {
    const p = await params(2 * CHUNK, 4 * CHUNK);
    const { bytes } = await sealAll(randomBytes(p.size), p);
    const swapped = concatBytes([bytes.slice(CHUNK + 16), bytes.slice(0, CHUNK + 16)]);
    await expect(openAll(swapped, p)).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
  });

  it('a truncated object fails with STREAM_TRUNCATED, at a chunk boundary too', async () => {
    const p = await params(4 * CHUNK + 10, 2 * CHUNK);
    const { bytes } = await sealAll(randomBytes(p.size), p);
    await expect(openAll(bytes.subarray(0, bytes.length - 1), p)).rejects.toMatchObject({
      code: 'STREAM_TRUNCATED',
    });
    await expect(openAll(bytes.subarray(0, 4 * (CHUNK + 16)), p)).rejects.toMatchObject({
      code: 'STREAM_TRUNCATED',
    });
    await expect(openAll(new Uint8Array(0), p)).rejects.toMatchObject({ code: 'STREAM_TRUNCATED' });
  });

  it('an extended object fails with STREAM_EXTENDED', async () => {
    const p = await params(CHUNK + 3, 2 * CHUNK);
    const { bytes } = await sealAll(randomBytes(p.size), p);
    await expect(openAll(concatBytes([bytes, new Uint8Array(1)]), p)).rejects.toMatchObject({
      code: 'STREAM_EXTENDED',
    });
  });
});
