/**
 * Protocol v1, "Files" (content), as Web Streams.
 *
 *   n        = max(1, ceil(size / chunkSize))       (an empty file is one empty chunk), chunkSize = 65536
 *   iv_i     = iv[0..8] || uint32_be(i)
 *   aad_i    = "vault:v1:file:" + fileId + ":chunk:" + i + ":" + (i == n-1 ? "last" : "more")
 *   object   = ct_0||tag_0 || ct_1||tag_1 || ...      encryptedSize = size + 16 * n
 *
 * Both transforms accept input in pieces of any size, cut it into chunks themselves, and keep a bounded
 * number of chunks in flight (`concurrency`, default 4), so memory does not grow with the file. Output keeps
 * chunk order. The decrypt transform emits a chunk's plaintext only after WebCrypto has verified its tag,
 * and errors (never closes cleanly) when the input ends early (STREAM_TRUNCATED) or runs long
 * (STREAM_EXTENDED). Reordered, dropped, duplicated or foreign chunks fail authentication (DECRYPT_FAILED)
 * because their index, "last" marker or file id is in the AAD.
 */
import { VaultCryptoError, badFormat, badInput } from './errors';
import { concatBytes, isBytes, utf8ToBytes } from './encoding';
import { AAD } from './aad';
import { aesGcmDecrypt, aesGcmEncrypt, isAesGcmKey, resolveAesKey } from './primitives';
import type { AesKeyInput } from './primitives';
import { requireItemId } from './ids';
import type { BytesOrHex, ItemId } from './types';
import { IV_BYTES, KEY_BYTES, TAG_BYTES, bytesOrHex, requireObject, wipe } from './validate';

export const FILE_CHUNK_SIZE = 65536;
/** Largest chunk size accepted (a hostile server could otherwise make a client allocate huge chunks). */
export const MAX_FILE_CHUNK_SIZE = 16 * 1024 * 1024;
const MAX_CHUNKS = 2 ** 32;
const DEFAULT_CONCURRENCY = 4;
const MAX_CONCURRENCY = 16;

function checkChunkSize(chunkSize: unknown): number {
  if (
    typeof chunkSize !== 'number' ||
    !Number.isSafeInteger(chunkSize) ||
    chunkSize < 1 ||
    chunkSize > MAX_FILE_CHUNK_SIZE
  ) {
    throw badInput(`chunkSize must be an integer from 1 to ${MAX_FILE_CHUNK_SIZE}`);
  }
  return chunkSize;
}

/** Number of chunks of a file of `size` plaintext bytes: max(1, ceil(size / chunkSize)). */
export function chunkCount(size: number, chunkSize: number = FILE_CHUNK_SIZE): number {
  const cs = checkChunkSize(chunkSize);
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
    throw badInput('file size must be a non-negative integer');
  }
  const n = Math.max(1, Math.ceil(size / cs));
  if (n > MAX_CHUNKS) throw badInput(`file size ${size} needs more than 2^32 chunks of ${cs} bytes`);
  return n;
}

/** size + 16 * n. */
export function encryptedSizeFor(size: number, chunkSize: number = FILE_CHUNK_SIZE): number {
  return size + TAG_BYTES * chunkCount(size, chunkSize);
}

/** The plaintext size of a stored object of `encryptedSize` bytes; BAD_FORMAT if no size maps to it. */
export function plaintextSizeFor(encryptedSize: number, chunkSize: number = FILE_CHUNK_SIZE): number {
  const cs = checkChunkSize(chunkSize);
  if (
    typeof encryptedSize !== 'number' ||
    !Number.isSafeInteger(encryptedSize) ||
    encryptedSize < TAG_BYTES
  ) {
    throw badFormat(
      `encrypted size ${String(encryptedSize)} is impossible (every file has at least one 16-byte tag)`,
    );
  }
  const full = Math.floor(encryptedSize / (cs + TAG_BYTES));
  const rem = encryptedSize % (cs + TAG_BYTES);
  let size: number;
  if (rem === 0) size = full * cs;
  else if (rem >= TAG_BYTES) size = full * cs + rem - TAG_BYTES;
  else throw badFormat(`encrypted size ${encryptedSize} does not match the chunk framing (chunk size ${cs})`);
  if (encryptedSizeFor(size, cs) !== encryptedSize) {
    throw badFormat(`encrypted size ${encryptedSize} does not match the chunk framing (chunk size ${cs})`);
  }
  return size;
}

/** iv[0..8] || uint32_be(index). */
export function chunkIv(fileIv: BytesOrHex, index: number): Uint8Array<ArrayBuffer> {
  const iv = bytesOrHex(fileIv, 'file iv', IV_BYTES);
  if (!Number.isSafeInteger(index) || index < 0 || index >= MAX_CHUNKS)
    throw badInput('chunk index out of range');
  const out = new Uint8Array(IV_BYTES);
  out.set(iv.subarray(0, 8));
  new DataView(out.buffer).setUint32(8, index, false);
  return out;
}

/** "vault:v1:file:<fileId>:chunk:<index>:<last|more>" for chunk `index` of `count`. */
export function chunkAad(fileId: string, index: number, count: number): string {
  const id = requireItemId(fileId, 'file id');
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_CHUNKS)
    throw badInput('chunk count out of range');
  if (!Number.isSafeInteger(index) || index < 0 || index >= count) throw badInput('chunk index out of range');
  return AAD.fileChunk(id, index, index === count - 1);
}

/** Test instrumentation: the transform updates these numbers as it runs. */
export interface FileStreamStats {
  /** Chunks sealed or opened so far. */
  chunks: number;
  bytesIn: number;
  bytesOut: number;
  /** Most bytes the transform held at once: the partial chunk plus the input and output of chunks in flight. */
  maxBufferedBytes: number;
  /** Most chunks in flight at once. */
  maxInFlight: number;
}

export interface FileStreamParams {
  /** The file key: a CryptoKey (from encryptFileMetadata / unwrapFileKey) or 32 raw bytes. */
  fileKey: AesKeyInput;
  fileId: string;
  /** The file's 12-byte content IV (hex as stored, or raw). */
  iv: BytesOrHex;
  /** Plaintext size in bytes. */
  size: number;
  /** Default 65536. */
  chunkSize?: number;
  /** Chunks sealed/opened concurrently, 1..16 (default 4). */
  concurrency?: number;
  stats?: FileStreamStats;
}

type Mode = 'encrypt' | 'decrypt';

interface Plan {
  fileId: ItemId;
  ivPrefix: Uint8Array;
  size: number;
  chunkSize: number;
  count: number;
  concurrency: number;
  stats: FileStreamStats | undefined;
}

function plan(params: FileStreamParams): Plan {
  const p = requireObject(params, 'file stream parameters') as unknown as FileStreamParams;
  const fileId = requireItemId(p.fileId, 'file id');
  const chunkSize = checkChunkSize(p.chunkSize ?? FILE_CHUNK_SIZE);
  const count = chunkCount(p.size, chunkSize);
  const concurrency = p.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw badInput(`concurrency must be an integer from 1 to ${MAX_CONCURRENCY}`);
  }
  const ivPrefix = new Uint8Array(bytesOrHex(p.iv, 'file iv', IV_BYTES).subarray(0, 8));
  return { fileId, ivPrefix, size: p.size, chunkSize, count, concurrency, stats: p.stats };
}

function createChunkTransform(mode: Mode, params: FileStreamParams): TransformStream<Uint8Array, Uint8Array> {
  const pl = plan(params);
  const keyInput = (params as { fileKey?: unknown }).fileKey;
  if (isBytes(keyInput) ? keyInput.length !== KEY_BYTES : !isAesGcmKey(keyInput)) {
    throw badInput('file key must be an AES-256-GCM CryptoKey or 32 raw bytes');
  }
  const tag = mode === 'decrypt' ? TAG_BYTES : 0;
  const plainLen = (i: number): number =>
    i < pl.count - 1 ? pl.chunkSize : pl.size - pl.chunkSize * (pl.count - 1);
  const inputLen = (i: number): number => plainLen(i) + tag;
  const expectedTotal = mode === 'decrypt' ? encryptedSizeFor(pl.size, pl.chunkSize) : pl.size;
  const what = `file ${pl.fileId}`;

  let key: CryptoKey | undefined;
  let index = 0;
  let current = new Uint8Array(inputLen(0));
  let filled = 0;
  let received = 0;
  let inFlightBytes = 0;
  const pending: { promise: Promise<Uint8Array>; bytes: number }[] = [];

  const noteBuffered = (): void => {
    if (!pl.stats) return;
    const held = current.length + inFlightBytes;
    if (held > pl.stats.maxBufferedBytes) pl.stats.maxBufferedBytes = held;
    if (pending.length > pl.stats.maxInFlight) pl.stats.maxInFlight = pending.length;
  };

  const runChunk = async (k: CryptoKey, i: number, input: Uint8Array): Promise<Uint8Array> => {
    const iv = new Uint8Array(IV_BYTES);
    iv.set(pl.ivPrefix);
    new DataView(iv.buffer).setUint32(8, i, false);
    const aad = utf8ToBytes(AAD.fileChunk(pl.fileId, i, i === pl.count - 1));
    if (mode === 'encrypt') {
      try {
        return await aesGcmEncrypt(k, iv, aad, input);
      } finally {
        wipe(input);
      }
    }
    return aesGcmDecrypt(k, iv, aad, input, `${what} chunk ${i} of ${pl.count}`);
  };

  const dispatch = (): void => {
    if (!key) throw new VaultCryptoError('BAD_INPUT', `${what}: file key not ready`);
    const i = index;
    const input = current;
    const outLen = input.length + (mode === 'encrypt' ? TAG_BYTES : -TAG_BYTES);
    const promise = runChunk(key, i, input);
    // Rejections are handled in order by drainOne; this only stops an "unhandled rejection" for the others.
    promise.catch(() => undefined);
    const bytes = input.length + outLen;
    pending.push({ promise, bytes });
    inFlightBytes += bytes;
    index++;
    current = new Uint8Array(index < pl.count ? inputLen(index) : 0);
    filled = 0;
    noteBuffered();
  };

  const drainOne = async (controller: TransformStreamDefaultController<Uint8Array>): Promise<void> => {
    const head = pending.shift();
    if (!head) return;
    const out = await head.promise;
    inFlightBytes -= head.bytes;
    if (pl.stats) {
      pl.stats.chunks++;
      pl.stats.bytesOut += out.length;
    }
    controller.enqueue(out);
  };

  return new TransformStream<Uint8Array, Uint8Array>({
    async start() {
      key = await resolveAesKey(keyInput, mode, 'file key');
    },
    async transform(piece, controller) {
      if (!isBytes(piece)) throw badInput(`${what}: stream input must be Uint8Array pieces`);
      // Errors are reported in byte order whatever the concurrency: bytes up to the expected end are
      // processed (and chunks in flight settled) before an overrun is reported.
      const room = expectedTotal - received;
      const usable = piece.length > room ? piece.subarray(0, room) : piece;
      received += usable.length;
      if (pl.stats) pl.stats.bytesIn += usable.length;
      let offset = 0;
      while (offset < usable.length) {
        const take = Math.min(usable.length - offset, current.length - filled);
        current.set(usable.subarray(offset, offset + take), filled);
        filled += take;
        offset += take;
        if (filled === current.length) {
          dispatch();
          while (pending.length >= pl.concurrency) await drainOne(controller);
        }
      }
      noteBuffered();
      if (usable.length < piece.length) {
        while (pending.length > 0) await drainOne(controller);
        throw mode === 'decrypt'
          ? new VaultCryptoError(
              'STREAM_EXTENDED',
              `${what}: encrypted stream runs past the expected ${expectedTotal} bytes (size ${pl.size}, ${pl.count} chunks)`,
            )
          : new VaultCryptoError(
              'SIZE_MISMATCH',
              `${what}: more plaintext than the announced size of ${pl.size} bytes`,
            );
      }
    },
    async flush(controller) {
      // Only an empty file's single empty chunk can still be waiting here (nothing ever fills it).
      if (received === expectedTotal && index < pl.count && filled === current.length) dispatch();
      while (pending.length > 0) await drainOne(controller);
      if (received < expectedTotal || index !== pl.count) {
        throw mode === 'decrypt'
          ? new VaultCryptoError(
              'STREAM_TRUNCATED',
              `${what}: encrypted stream ended after ${received} of ${expectedTotal} bytes (size ${pl.size}, ${pl.count} chunks)`,
            )
          : new VaultCryptoError(
              'SIZE_MISMATCH',
              `${what}: plaintext ended after ${received} of the announced ${pl.size} bytes`,
            );
      }
    },
  });
}

/** Plaintext pieces in, ct_i||tag_i chunks out. SIZE_MISMATCH unless exactly `size` bytes go in. */
export function createEncryptStream(params: FileStreamParams): TransformStream<Uint8Array, Uint8Array> {
  return createChunkTransform('encrypt', params);
}

/** Stored bytes in (pieces of any size), authenticated plaintext chunks out. */
export function createDecryptStream(params: FileStreamParams): TransformStream<Uint8Array, Uint8Array> {
  return createChunkTransform('decrypt', params);
}

async function runThrough(
  stream: TransformStream<Uint8Array, Uint8Array>,
  input: Uint8Array,
): Promise<Uint8Array> {
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const parts: Uint8Array[] = [];
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      parts.push(value);
    }
  })();
  const writing = (async () => {
    if (input.length > 0) await writer.write(input);
    await writer.close();
  })();
  // Surface the stream's own error (the reader sees it even when the writer only sees a generic abort).
  const [w, r] = await Promise.allSettled([writing, reading]);
  if (r.status === 'rejected') throw r.reason;
  if (w.status === 'rejected') throw w.reason;
  return concatBytes(parts);
}

/** Whole-buffer convenience for small files, built on createEncryptStream. */
export async function encryptFileBytes(
  params: Omit<FileStreamParams, 'size'>,
  plaintext: Uint8Array,
): Promise<Uint8Array> {
  if (!isBytes(plaintext)) throw badInput('plaintext must be a Uint8Array');
  return runThrough(createEncryptStream({ ...params, size: plaintext.length }), plaintext);
}

/** Whole-buffer convenience for small files, built on createDecryptStream. */
export async function decryptFileBytes(
  params: FileStreamParams,
  ciphertext: Uint8Array,
): Promise<Uint8Array> {
  if (!isBytes(ciphertext)) throw badInput('ciphertext must be a Uint8Array');
  return runThrough(createDecryptStream(params), ciphertext);
}
