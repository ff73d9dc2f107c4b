import fc from 'fast-check';
import { createSHA256 } from 'hash-wasm';
import {
  chunkCount,
  createDecryptStream,
  createEncryptStream,
  decryptFileBytes,
  encryptFileBytes,
  encryptedSizeFor,
  plaintextSizeFor,
} from './file-stream';
import type { FileStreamParams, FileStreamStats } from './file-stream';
import { concatBytes, hexToBytes } from './encoding';
import { FILE_ID, OTHER_FILE_ID, OTHER_KEY_RAW, VAULT_KEY_RAW } from '../test/support/keys';
import { cut, pipeAll, pseudoRandomBytes, readAll, sameBytes, streamOf } from '../test/support/streams';

const FILE_KEY = VAULT_KEY_RAW;
const IV = hexToBytes('b0b1b2b3b4b5b6b7b8b9babb');
const CS = 65536;
const SEG = CS + 16;

function newStats(): FileStreamStats {
  return { chunks: 0, bytesIn: 0, bytesOut: 0, maxBufferedBytes: 0, maxInFlight: 0 };
}

describe('file content streams', () => {
  describe('sizes', () => {
    it('computes chunk counts and encrypted sizes, and inverts them', () => {
      expect(chunkCount(0)).toBe(1);
      expect(encryptedSizeFor(0)).toBe(16);
      expect(encryptedSizeFor(65536)).toBe(65552);
      expect(encryptedSizeFor(65537)).toBe(65569);
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 2 ** 40 }),
          fc.integer({ min: 1, max: 1 << 20 }),
          (size, cs) => {
            fc.pre(size / cs < 2 ** 32);
            expect(plaintextSizeFor(encryptedSizeFor(size, cs), cs)).toBe(size);
          },
        ),
      );
      expect(() => plaintextSizeFor(65536 + 16 + 5)).toThrow(expect.objectContaining({ code: 'BAD_FORMAT' }));
      expect(() => plaintextSizeFor(15)).toThrow(expect.objectContaining({ code: 'BAD_FORMAT' }));
      expect(() => chunkCount(-1)).toThrow(expect.objectContaining({ code: 'BAD_INPUT' }));
      expect(() => chunkCount(10, 0)).toThrow(expect.objectContaining({ code: 'BAD_INPUT' }));
    });
  });

  it('round-trips random sizes, chunk sizes, concurrency and input piece sizes (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          { weight: 3, arbitrary: fc.constant(CS) },
          { weight: 2, arbitrary: fc.constantFrom(1, 16, 1000, 4096) },
        ),
        fc.nat({ max: 300 * 1024 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.array(fc.integer({ min: 1, max: 100_000 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 100_000 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 8 }),
        async (chunkSize, rawSize, seed, encPieces, decPieces, concurrency) => {
          const size = Math.min(rawSize, chunkSize * 300);
          const pt = pseudoRandomBytes(size, seed);
          const params = { fileKey: FILE_KEY, fileId: FILE_ID, iv: IV, size, chunkSize, concurrency };
          const ct = await pipeAll(cut(pt, encPieces), createEncryptStream(params));
          expect(ct.length).toBe(encryptedSizeFor(size, chunkSize));
          const back = await pipeAll(cut(ct, decPieces), createDecryptStream(params));
          expect(sameBytes(back, pt)).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);

  it('the byte helpers match the streams and take the IV as hex or bytes', async () => {
    const pt = pseudoRandomBytes(200_000, 7);
    const ct = await encryptFileBytes(
      { fileKey: FILE_KEY, fileId: FILE_ID, iv: 'b0b1b2b3b4b5b6b7b8b9babb' },
      pt,
    );
    const viaStream = await pipeAll(
      [pt],
      createEncryptStream({ fileKey: FILE_KEY, fileId: FILE_ID, iv: IV, size: pt.length }),
    );
    expect(sameBytes(ct, viaStream)).toBe(true);
    expect(
      sameBytes(
        await decryptFileBytes({ fileKey: FILE_KEY, fileId: FILE_ID, iv: IV, size: pt.length }, ct),
        pt,
      ),
    ).toBe(true);
  });

  describe('refusals', () => {
    // 4 full chunks + a short one: 4 * 65536 + 1000 bytes.
    const size = 4 * CS + 1000;
    const pt = pseudoRandomBytes(size, 42);
    const params: FileStreamParams = { fileKey: FILE_KEY, fileId: FILE_ID, iv: IV, size };
    let ct: Uint8Array;
    let chunks: Uint8Array[];

    beforeAll(async () => {
      ct = await encryptFileBytes(params, pt);
      chunks = [0, 1, 2, 3, 4].map((i) => ct.slice(i * SEG, Math.min(ct.length, (i + 1) * SEG)));
    });

    async function decryptPieces(pieces: Uint8Array[], p: Partial<FileStreamParams> = {}) {
      return readAll(streamOf(pieces).pipeThrough(createDecryptStream({ ...params, ...p })));
    }

    async function expectRefused(pieces: Uint8Array[], code: string, p: Partial<FileStreamParams> = {}) {
      const res = await decryptPieces(pieces, p);
      expect(res.closed).toBe(false);
      expect(res.error).toMatchObject({ name: 'VaultCryptoError', code });
      return res;
    }

    const c = (i: number): Uint8Array => chunks[i] ?? new Uint8Array(0);
    const flipped = (bytes: Uint8Array, at: number): Uint8Array => {
      const copy = new Uint8Array(bytes);
      copy[at] = (copy[at] ?? 0) ^ 0x01;
      return copy;
    };

    it('accepts the untouched object', async () => {
      const res = await decryptPieces(chunks);
      expect(res.closed).toBe(true);
      expect(sameBytes(concatBytes(res.pieces), pt)).toBe(true);
    });

    it('refuses a flipped bit in a chunk ciphertext and in a tag', async () => {
      await expectRefused([c(0), flipped(c(1), 100), c(2), c(3), c(4)], 'DECRYPT_FAILED');
      await expectRefused([c(0), c(1), c(2), c(3), flipped(c(4), c(4).length - 1)], 'DECRYPT_FAILED');
    });

    it('refuses a flipped bit in the file IV (its first 8 bytes are in every chunk IV)', async () => {
      const iv = flipped(IV, 3);
      await expectRefused(chunks, 'DECRYPT_FAILED', { iv });
    });

    it('never emits plaintext of a chunk that did not authenticate', async () => {
      const res = await expectRefused([c(0), c(1), c(2), flipped(c(3), 5), c(4)], 'DECRYPT_FAILED');
      const emitted = concatBytes(res.pieces);
      expect(emitted.length).toBeLessThanOrEqual(3 * CS);
      expect(sameBytes(emitted, pt.subarray(0, emitted.length))).toBe(true);
      // And a tampered first chunk means nothing at all comes out.
      const first = await expectRefused([flipped(c(0), 0), c(1), c(2), c(3), c(4)], 'DECRYPT_FAILED');
      expect(concatBytes(first.pieces)).toHaveLength(0);
    });

    it('refuses reordered chunks', async () => {
      await expectRefused([c(1), c(0), c(2), c(3), c(4)], 'DECRYPT_FAILED');
      await expectRefused([c(0), c(1), c(3), c(2), c(4)], 'DECRYPT_FAILED');
    });

    it('refuses a dropped chunk, also when the size is lied about to match', async () => {
      await expectRefused([c(0), c(2), c(3), c(4)], 'DECRYPT_FAILED');
      await expectRefused([c(0), c(1), c(2), c(4)], 'DECRYPT_FAILED', { size: size - CS });
    });

    it('refuses a duplicated chunk', async () => {
      await expectRefused([c(0), c(0), c(1), c(2), c(3), c(4)], 'DECRYPT_FAILED');
      await expectRefused([c(0), c(1), c(2), c(3), c(4), c(4)], 'STREAM_EXTENDED');
    });

    it('refuses an appended chunk or trailing bytes, and errors instead of closing', async () => {
      const extra = await encryptFileBytes(params, pt);
      await expectRefused([...chunks, extra.subarray(0, SEG)], 'STREAM_EXTENDED');
      await expectRefused([...chunks, new Uint8Array(1)], 'STREAM_EXTENDED');
    });

    it('refuses truncation at a chunk boundary and mid-chunk, as an error (not a clean close)', async () => {
      await expectRefused([c(0), c(1)], 'STREAM_TRUNCATED');
      await expectRefused([c(0), c(1), c(2), c(3)], 'STREAM_TRUNCATED');
      await expectRefused([c(0), c(1).subarray(0, 1234)], 'STREAM_TRUNCATED');
      await expectRefused([c(0), c(1), c(2), c(3), c(4).subarray(0, c(4).length - 1)], 'STREAM_TRUNCATED');
      await expectRefused([], 'STREAM_TRUNCATED');
      // Truncated to a chunk boundary with the size lied about: that chunk was sealed as "more", not "last".
      await expectRefused([c(0), c(1)], 'DECRYPT_FAILED', { size: 2 * CS });
    });

    it('refuses a chunk from another file (same key, other fileId) and from another key', async () => {
      const foreign = await encryptFileBytes({ ...params, fileId: OTHER_FILE_ID }, pt);
      await expectRefused([c(0), foreign.slice(SEG, 2 * SEG), c(2), c(3), c(4)], 'DECRYPT_FAILED');
      await expectRefused(chunks, 'DECRYPT_FAILED', { fileId: OTHER_FILE_ID });
      await expectRefused(chunks, 'DECRYPT_FAILED', { fileKey: OTHER_KEY_RAW });
    });

    it('encrypt refuses more or fewer plaintext bytes than announced (SIZE_MISMATCH)', async () => {
      await expect(pipeAll([pt, new Uint8Array(1)], createEncryptStream(params))).rejects.toMatchObject({
        code: 'SIZE_MISMATCH',
      });
      await expect(pipeAll([pt.subarray(1)], createEncryptStream(params))).rejects.toMatchObject({
        code: 'SIZE_MISMATCH',
      });
      await expect(
        pipeAll([new Uint8Array(1)], createEncryptStream({ ...params, size: 0 })),
      ).rejects.toMatchObject({
        code: 'SIZE_MISMATCH',
      });
    });

    it('checks its parameters when created and its input pieces', async () => {
      expect(() => createEncryptStream({ ...params, fileId: 'x' })).toThrow(
        expect.objectContaining({ code: 'BAD_INPUT' }),
      );
      expect(() => createDecryptStream({ ...params, iv: 'b0b1' })).toThrow(
        expect.objectContaining({ code: 'BAD_INPUT' }),
      );
      expect(() => createDecryptStream({ ...params, size: -1 })).toThrow(
        expect.objectContaining({ code: 'BAD_INPUT' }),
      );
      expect(() => createDecryptStream({ ...params, chunkSize: 2 ** 30 })).toThrow(
        expect.objectContaining({ code: 'BAD_INPUT' }),
      );
      expect(() => createDecryptStream({ ...params, concurrency: 0 })).toThrow(
        expect.objectContaining({ code: 'BAD_INPUT' }),
      );
      await expect(pipeAll(['text' as never], createEncryptStream(params))).rejects.toMatchObject({
        code: 'BAD_INPUT',
      });
      expect(() => createEncryptStream({ ...params, fileKey: new Uint8Array(16) })).toThrow(
        expect.objectContaining({ code: 'BAD_INPUT' }),
      );
    });
  });

  it('keeps memory flat: 64 MiB through encrypt → decrypt in odd-sized pieces', async () => {
    const size = 64 * 1024 * 1024;
    const block = pseudoRandomBytes(512 * 1024, 1);
    const pieceSizes = [1, 100_000, 65_536, 3, 262_144, 65_551, 7_000, 131_072];
    const hashIn = await createSHA256();
    const hashOut = await createSHA256();
    hashIn.init();
    hashOut.init();
    let produced = 0;
    let consumed = 0;
    let maxOutstanding = 0;
    let k = 0;
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (produced >= size) {
          controller.close();
          return;
        }
        const n = Math.min(size - produced, pieceSizes[k++ % pieceSizes.length] ?? 1);
        const start = (produced * 7) % (block.length - 262_144);
        const piece = block.slice(start, start + n);
        piece[0] = (produced / 4096) & 0xff;
        hashIn.update(piece);
        produced += n;
        maxOutstanding = Math.max(maxOutstanding, produced - consumed);
        controller.enqueue(piece);
      },
    });
    const encStats = newStats();
    const decStats = newStats();
    const params = { fileKey: FILE_KEY, fileId: FILE_ID, iv: IV, size };
    const reader = source
      .pipeThrough(createEncryptStream({ ...params, stats: encStats }))
      .pipeThrough(createDecryptStream({ ...params, stats: decStats }))
      .getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      hashOut.update(value);
      consumed += value.length;
    }
    expect(consumed).toBe(size);
    expect(hashOut.digest('hex')).toBe(hashIn.digest('hex'));
    expect(encStats.bytesOut).toBe(encryptedSizeFor(size));
    expect(decStats.chunks).toBe(chunkCount(size));
    // The transforms hold at most the partial chunk plus `concurrency` (4) chunks in flight (input + output).
    const perTransformBound = (4 + 1) * 2 * SEG;
    expect(encStats.maxBufferedBytes).toBeLessThanOrEqual(perTransformBound);
    expect(decStats.maxBufferedBytes).toBeLessThanOrEqual(perTransformBound);
    expect(encStats.maxInFlight).toBeLessThanOrEqual(4);
    expect(decStats.maxInFlight).toBeGreaterThan(1);
    // Across the whole pipeline (both transforms and every stream queue): a few MiB, not the 64 MiB file.
    expect(maxOutstanding).toBeLessThan(4 * 1024 * 1024);
  }, 60_000);
});
