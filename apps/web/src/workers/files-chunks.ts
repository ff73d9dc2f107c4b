import {
  MAX_FILE_CHUNK_SIZE,
  VaultCryptoError,
  chunkAad,
  chunkCount,
  chunkIv,
  encryptedSizeFor,
  utf8ToBytes,
  type BytesOrHex,
} from '@vault/crypto';

/**
 * Protocol v1 "Files" content (64 KiB chunks, AES-256-GCM each, iv_i = iv[0..8] || uint32_be(i),
 * aad_i = "vault:v1:file:<id>:chunk:<i>:<last|more>", object = ct_0||tag_0 || ct_1||tag_1 ...), in
 * batches of whole chunks. Same bytes as @vault/crypto's createEncryptStream/createDecryptStream
 * (the tests check it against them), but sized for throughput in the browser, where measurement
 * (bench/files.bench.mjs) showed the per-chunk stream machinery, not AES, to be the limit:
 *
 * - a batch is about 4 MiB of chunks, all handed to WebCrypto at once (its thread pool runs them
 *   side by side) and gathered into ONE buffer, so the file is read, written to OPFS, posted between
 *   realms and written to the save picker's file in 4 MiB pieces instead of 64 KiB ones;
 * - two batches are in flight, so reading the next overlaps sealing or opening the current one.
 *
 * Memory is a few batches whatever the file size. Decryption releases a batch's plaintext only
 * after every tag in it verified, and errors (never closes) on a short or long object.
 */

export const TAG_BYTES = 16;
/** Target bytes of one batch (rounded down to whole chunks, at least one chunk). */
export const BATCH_BYTES = 4 * 1024 * 1024;
/** Batches sealed or opened at once. */
const BATCHES_IN_FLIGHT = 2;
/** Stored bytes the decrypt transform accepts ahead of its batches. */
const INPUT_QUEUE_BYTES = 4 * 1024 * 1024;

export interface ChunkParams {
  /** The file key (AES-256-GCM CryptoKey with the needed usage). */
  fileKey: CryptoKey;
  fileId: string;
  /** The file's 12-byte content IV, hex or raw. */
  iv: BytesOrHex;
  /** Plaintext size in bytes. */
  size: number;
  chunkSize: number;
  /** Bytes of plaintext per batch (tests use small ones); default BATCH_BYTES. */
  batchBytes?: number;
}

interface Framing {
  count: number;
  chunkSize: number;
  /** Chunks per batch. */
  perBatch: number;
  plainLen(i: number): number;
}

function framing(p: ChunkParams): Framing {
  if (!Number.isSafeInteger(p.chunkSize) || p.chunkSize < 1 || p.chunkSize > MAX_FILE_CHUNK_SIZE) {
    throw new VaultCryptoError('BAD_INPUT', `chunkSize must be an integer from 1 to ${MAX_FILE_CHUNK_SIZE}`);
  }
  const count = chunkCount(p.size, p.chunkSize);
  const perBatch = Math.max(1, Math.floor((p.batchBytes ?? BATCH_BYTES) / p.chunkSize));
  const chunkSize = p.chunkSize;
  const plainLen = (i: number) => (i < count - 1 ? chunkSize : p.size - chunkSize * (count - 1));
  return { count, chunkSize, perBatch, plainLen };
}

function gcm(p: ChunkParams, i: number, count: number): AesGcmParams {
  return {
    name: 'AES-GCM',
    iv: chunkIv(p.iv, i),
    additionalData: utf8ToBytes(chunkAad(p.fileId, i, count)),
    tagLength: TAG_BYTES * 8,
  };
}

/**
 * Seals chunks `first`.. of `plain` (whole chunks, only the file's last one may be short) into
 * one buffer ct||tag, ct||tag, ...
 */
async function sealBatch(
  p: ChunkParams,
  f: Framing,
  first: number,
  plain: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array> {
  const chunks = Math.max(1, Math.ceil(plain.length / f.chunkSize));
  const out = new Uint8Array(plain.length + TAG_BYTES * chunks);
  await Promise.all(
    Array.from({ length: chunks }, async (_, j) => {
      const from = j * f.chunkSize;
      const piece = plain.subarray(from, Math.min(plain.length, from + f.chunkSize));
      const sealed = await crypto.subtle.encrypt(gcm(p, first + j, f.count), p.fileKey, piece);
      out.set(new Uint8Array(sealed), from + TAG_BYTES * j);
    }),
  );
  return out;
}

/**
 * Buffers handed back for reuse, so a long transfer does not leave a trail of megabyte-sized
 * garbage for the collector (the renderer's peak would grow with the file). Only exact sizes are
 * reused (every batch but the last has the same size); a few are kept at most.
 */
export class BufferPool {
  private readonly free: ArrayBuffer[] = [];

  constructor(private readonly keep = 4) {}

  take(bytes: number): Uint8Array<ArrayBuffer> {
    const at = this.free.findIndex((b) => b.byteLength === bytes);
    if (at < 0) return new Uint8Array(bytes);
    const [buffer] = this.free.splice(at, 1);
    return new Uint8Array(buffer!);
  }

  give(buffer: ArrayBuffer): void {
    if (buffer.byteLength > 0 && this.free.length < this.keep) this.free.push(buffer);
  }
}

/** Opens chunks `first`.. of `stored` (ct||tag each) into one plaintext buffer; DECRYPT_FAILED on any bad tag. */
async function openBatch(
  p: ChunkParams,
  f: Framing,
  first: number,
  stored: Uint8Array<ArrayBuffer>,
  outputs?: BufferPool,
): Promise<Uint8Array> {
  const step = f.chunkSize + TAG_BYTES;
  const chunks = Math.max(1, Math.ceil(stored.length / step));
  const size = stored.length - TAG_BYTES * chunks;
  const out = outputs ? outputs.take(size) : new Uint8Array(size);
  const results = await Promise.allSettled(
    Array.from({ length: chunks }, async (_, j) => {
      const from = j * step;
      const piece = stored.subarray(from, Math.min(stored.length, from + step));
      const plain = await crypto.subtle.decrypt(gcm(p, first + j, f.count), p.fileKey, piece);
      out.set(new Uint8Array(plain), j * f.chunkSize);
    }),
  );
  const bad = results.findIndex((r) => r.status === 'rejected');
  if (bad >= 0) {
    out.fill(0);
    throw new VaultCryptoError(
      'DECRYPT_FAILED',
      `file ${p.fileId} chunk ${first + bad} of ${f.count}: authentication failed (wrong key, or the data was altered)`,
    );
  }
  return out;
}

/** A Blob's bytes: its arrayBuffer() where it has one, else a FileReader (old engines, jsdom). */
export async function readBlob(blob: Blob): Promise<Uint8Array<ArrayBuffer>> {
  if (typeof blob.arrayBuffer === 'function') return new Uint8Array(await blob.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    reader.readAsArrayBuffer(blob);
  });
}

/**
 * Encrypts `file` (exactly `p.size` bytes) and hands the stored object's bytes to `write` in
 * order, one batch at a time (each batch's buffer is the caller's to keep). Reading the next
 * batch and sealing the current one overlap; `write` runs while the next batch is sealed.
 * `onPlaintext`, when given, sees each batch's plaintext once, in file order, before it is
 * sealed and wiped (an incremental hash rides along, so the file is still read only once).
 */
export async function encryptBlob(
  file: Blob,
  p: ChunkParams,
  write: (sealed: Uint8Array) => void | Promise<void>,
  onPlaintext?: (plain: Uint8Array) => void,
): Promise<void> {
  const f = framing(p);
  if (file.size !== p.size) {
    throw new VaultCryptoError(
      'SIZE_MISMATCH',
      `the file has ${file.size} bytes, not the announced ${p.size}`,
    );
  }
  const batches = Math.ceil(f.count / f.perBatch);
  const read = (b: number): Promise<Uint8Array<ArrayBuffer>> => {
    const from = b * f.perBatch * f.chunkSize;
    const to = Math.min(p.size, from + f.perBatch * f.chunkSize);
    const reading = readBlob(file.slice(from, to)).then((plain) => {
      if (plain.length !== to - from) {
        throw new VaultCryptoError('SIZE_MISMATCH', 'the file changed while it was being encrypted');
      }
      return plain;
    });
    reading.catch(() => undefined);
    return reading;
  };
  const sealing: Promise<Uint8Array>[] = [];
  let next = read(0);
  for (let b = 0; b < batches; b++) {
    const plain = await next;
    if (b + 1 < batches) next = read(b + 1);
    // Synchronous and before sealBatch: the buffer is wiped once its batch is sealed.
    onPlaintext?.(plain);
    const sealed = sealBatch(p, f, b * f.perBatch, plain).finally(() => plain.fill(0));
    sealed.catch(() => undefined);
    sealing.push(sealed);
    while (sealing.length >= BATCHES_IN_FLIGHT) await write(await sealing.shift()!);
  }
  while (sealing.length > 0) await write(await sealing.shift()!);
}

/**
 * Stored bytes in (pieces of any size), verified plaintext out in batches of about BATCH_BYTES.
 * Errors with DECRYPT_FAILED (a bad tag: altered, reordered, foreign or dropped chunk),
 * STREAM_TRUNCATED (the object ends early) or STREAM_EXTENDED (it runs long), reported in byte
 * order; it never closes cleanly unless every chunk and the end matched.
 */
export function createBatchedDecryptStream(
  p: ChunkParams,
  /** Where plaintext buffers come from (give them back once written); else each is new. */
  outputs?: BufferPool,
): TransformStream<Uint8Array, Uint8Array> {
  const f = framing(p);
  const inputs = new BufferPool(BATCHES_IN_FLIGHT + 1);
  const expected = encryptedSizeFor(p.size, p.chunkSize);
  const storedLen = (first: number) => {
    const last = Math.min(f.count, first + f.perBatch);
    let n = 0;
    for (let i = first; i < last; i++) n += f.plainLen(i) + TAG_BYTES;
    return n;
  };
  let first = 0;
  let current = inputs.take(storedLen(0));
  let filled = 0;
  let received = 0;
  const opening: Promise<Uint8Array>[] = [];

  const dispatch = () => {
    const batch = current;
    // The stored bytes' buffer is reused once its chunks are opened (WebCrypto works on copies).
    const promise = openBatch(p, f, first, batch, outputs).finally(() => inputs.give(batch.buffer));
    promise.catch(() => undefined);
    opening.push(promise);
    first += f.perBatch;
    current = inputs.take(first < f.count ? storedLen(first) : 0);
    filled = 0;
  };
  const drainOne = async (controller: TransformStreamDefaultController<Uint8Array>) => {
    const out = await opening.shift()!;
    if (out.length > 0) controller.enqueue(out);
  };

  return new TransformStream<Uint8Array, Uint8Array>(
    {
      async transform(piece, controller) {
        const room = expected - received;
        const usable = piece.length > room ? piece.subarray(0, room) : piece;
        received += usable.length;
        let offset = 0;
        while (offset < usable.length) {
          const take = Math.min(usable.length - offset, current.length - filled);
          current.set(usable.subarray(offset, offset + take), filled);
          filled += take;
          offset += take;
          if (filled === current.length) {
            dispatch();
            while (opening.length >= BATCHES_IN_FLIGHT) await drainOne(controller);
          }
        }
        if (usable.length < piece.length) {
          while (opening.length > 0) await drainOne(controller);
          throw new VaultCryptoError(
            'STREAM_EXTENDED',
            `file ${p.fileId}: encrypted stream runs past the expected ${expected} bytes (size ${p.size}, ${f.count} chunks)`,
          );
        }
      },
      async flush(controller) {
        while (opening.length > 0) await drainOne(controller);
        if (received < expected || first < f.count) {
          throw new VaultCryptoError(
            'STREAM_TRUNCATED',
            `file ${p.fileId}: encrypted stream ended after ${received} of ${expected} bytes (size ${p.size}, ${f.count} chunks)`,
          );
        }
      },
    },
    // Room for a few MiB of stored bytes ahead of the batches being opened, so the network is
    // read on while WebCrypto works (the writer waits on `ready`, not on each write).
    new ByteLengthQueuingStrategy({ highWaterMark: INPUT_QUEUE_BYTES }),
    { highWaterMark: 1 },
  );
}
