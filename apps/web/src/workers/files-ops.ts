import {
  FILE_CHUNK_SIZE,
  bytesToHex,
  decryptFileMetadata,
  decryptThumbnail,
  encryptFileMetadata,
  encryptThumbnail,
  encryptedSizeFor,
  newItemId,
  randomBytes,
  unwrapFileKey,
} from '@vault/crypto';
import { createSHA256 } from 'hash-wasm';
import { encryptBlob, readBlob } from './files-chunks';
import type {
  FileMetaOutcome,
  PreparedUpload,
  SealedFileMeta,
  SealedUploadFields,
  SentUpload,
  UploadInput,
} from './files-messages';
import { PART_BYTES, PartSender, blobPartPut, type PartPut, type PartsTarget } from './files-parts';
import { openStaging, releaseStaging, type StagingSink } from './files-staging';
import { makeThumbnail } from './files-thumbnail';
import { transfer } from './worker-rpc';

/**
 * The files operations on @vault/crypto. They run inside files.worker.ts in the browser and
 * in-thread where no Worker exists (tests): same code either way.
 */

/** The contract's FILE_THUMBNAIL_MAX_CHARS (libs/contracts; not imported here to keep zod out of the worker). */
export const SEALED_THUMBNAIL_MAX_CHARS = 512 * 1024;
/** Encryption progress is reported about every this many bytes (and at the end). */
const PROGRESS_STEP = 1024 * 1024;
/** Pieces read from a Blob that has no stream() (old engines, jsdom). */
const READ_PIECE = 1024 * 1024;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Decrypts the name, type and tags of a batch of files. Every file is independent: one that
 * fails comes back as `{ok: false}` and the others are unaffected. The answer keeps the order.
 */
export async function decryptMetadataBatch(
  key: CryptoKey,
  files: readonly SealedFileMeta[],
): Promise<FileMetaOutcome[]> {
  return Promise.all(
    files.map(async (file): Promise<FileMetaOutcome> => {
      try {
        const meta = await decryptFileMetadata(key, file.id, file);
        return { id: file.id, ok: true, meta };
      } catch (error) {
        return { id: file.id, ok: false, error: describe(error) };
      }
    }),
  );
}

/** Opens a file's sealed thumbnail with its key (unwrapped from `wrappedKey` here). */
export async function openThumbnail(
  key: CryptoKey,
  file: { id: string; wrappedKey: string },
  encryptedThumbnail: string,
): Promise<Uint8Array> {
  const fileKey = await unwrapFileKey(key, file.id, file.wrappedKey);
  return decryptThumbnail(fileKey, file.id, encryptedThumbnail);
}

/** The Blob's bytes as a stream: its own stream() where it has one, else read piece by piece. */
export function blobStream(blob: Blob, pieceSize = READ_PIECE): ReadableStream<Uint8Array> {
  if (typeof blob.stream === 'function') return blob.stream() as ReadableStream<Uint8Array>;
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (offset >= blob.size) {
        controller.close();
        return;
      }
      const end = Math.min(blob.size, offset + pieceSize);
      const piece = await readBlob(blob.slice(offset, end));
      offset = end;
      controller.enqueue(piece);
    },
  });
}

export interface UploadEnvironment {
  openStaging(fileId: string, encryptedSize: number): Promise<StagingSink>;
  makeThumbnail(file: Blob, mimeType: string): Promise<Uint8Array | null>;
  /** Stores one part of an upload sent in parts (XHR of a Blob in the browser; tests pass their own). */
  putPart: PartPut;
}

export const defaultUploadEnvironment: UploadEnvironment = {
  openStaging,
  makeThumbnail,
  putPart: blobPartPut,
};

/**
 * The first step of an upload (protocol v1 "Files"): a fresh file id (UUID v4) and file key, the
 * name, type and tags sealed with encryptFileMetadata, an optional thumbnail sealed with
 * encryptThumbnail, and the content's IV and sizes. These are the fields of upload-url; the
 * content is sealed afterwards by stageUpload or sendUploadParts, which unwrap the file key
 * from `wrappedKey` again (the worker keeps no key between requests).
 */
export async function sealUploadMeta(
  key: CryptoKey,
  input: UploadInput,
  env: Pick<UploadEnvironment, 'makeThumbnail'> = defaultUploadEnvironment,
): Promise<SealedUploadFields> {
  const fileId = newItemId();
  const size = input.file.size;
  const sealed = await encryptFileMetadata(key, fileId, {
    name: input.name,
    mimeType: input.mimeType,
    tags: input.tags,
  });
  const fields: SealedUploadFields = {
    fileId,
    size,
    encryptedSize: encryptedSizeFor(size, FILE_CHUNK_SIZE),
    chunkSize: FILE_CHUNK_SIZE,
    iv: bytesToHex(randomBytes(12)),
    wrappedKey: sealed.wrappedKey,
    encryptedName: sealed.encryptedName,
    encryptedMimeType: sealed.encryptedMimeType,
    encryptedTags: sealed.encryptedTags,
  };
  if (input.thumbnail) {
    try {
      const picture = await env.makeThumbnail(input.file, input.mimeType);
      if (picture) {
        const sealedPicture = await encryptThumbnail(sealed.fileKey, fileId, picture);
        if (sealedPicture.length <= SEALED_THUMBNAIL_MAX_CHARS) fields.encryptedThumbnail = sealedPicture;
      }
    } catch {
      // A thumbnail is optional: the upload goes on without one.
    }
  }
  return fields;
}

/**
 * Seals `input.file` with the fields' key and IV in batches of whole 64 KiB chunks
 * (files-chunks.ts: the same bytes as createEncryptStream, memory flat in the file size), handing
 * the stored object's bytes to `write` in order. Returns the plaintext's SHA-256 when
 * `input.fingerprint` asked for it (hashed in the same pass: opt-in only, docs/architecture.md
 * "Virus scanning of end-to-end encrypted files").
 */
async function sealContent(
  key: CryptoKey,
  fields: SealedUploadFields,
  input: UploadInput,
  write: (sealed: Uint8Array) => void | Promise<void>,
): Promise<string | undefined> {
  const fileKey = await unwrapFileKey(key, fields.fileId, fields.wrappedKey);
  const hasher = input.fingerprint ? await createSHA256() : null;
  hasher?.init();
  await encryptBlob(
    input.file,
    {
      fileKey,
      fileId: fields.fileId,
      iv: fields.iv,
      size: fields.size,
      chunkSize: fields.chunkSize,
    },
    write,
    hasher ? (plain) => hasher.update(plain) : undefined,
  );
  return hasher?.digest('hex');
}

/** Reports progress about every PROGRESS_STEP bytes, and at the end. */
function stepper(total: number, report: (done: number) => void): (done: number) => void {
  let reported = 0;
  return (done) => {
    if (done - reported >= PROGRESS_STEP || done === total) {
      reported = done;
      report(done);
    }
  };
}

/**
 * Seals the content into a staging sink (files-staging.ts) for a whole-object PUT (storages
 * without parts). `onProgress(done, total)` counts ciphertext bytes written.
 */
export async function stageUpload(
  key: CryptoKey,
  fields: SealedUploadFields,
  input: UploadInput,
  onProgress: (done: number, total: number) => void = () => undefined,
  env: Pick<UploadEnvironment, 'openStaging'> = defaultUploadEnvironment,
): Promise<PreparedUpload> {
  const total = fields.encryptedSize;
  onProgress(0, total);
  const sink = await env.openStaging(fields.fileId, total);
  try {
    let written = 0;
    const progress = stepper(total, (done) => onProgress(done, total));
    const digest = await sealContent(key, fields, input, (batch) => {
      sink.write(batch);
      written += batch.length;
      progress(written);
    });
    const { blob, staging } = await sink.finish();
    if (blob.size !== total) {
      throw new Error(`The encrypted file has ${blob.size} bytes instead of ${total}`);
    }
    const prepared: PreparedUpload = { fields, ciphertext: blob, staging };
    if (digest !== undefined) prepared.plaintextSha256 = digest;
    return prepared;
  } catch (error) {
    await sink.abort();
    throw error;
  }
}

/**
 * Seals the content and sends it in parts as it goes (files-parts.ts): to a URL that takes
 * parts of at most `partSize` bytes, or to one URL per part (S3). `onProgress(sealed, total,
 * sent)`: ciphertext bytes sealed, and bytes the storage has confirmed.
 */
export async function sendUploadParts(
  key: CryptoKey,
  fields: SealedUploadFields,
  input: UploadInput,
  target: PartsTarget,
  onProgress: (sealed: number, total: number, sent: number) => void = () => undefined,
  env: Pick<UploadEnvironment, 'putPart'> = defaultUploadEnvironment,
): Promise<SentUpload> {
  const total = fields.encryptedSize;
  let sealed = 0;
  let sent = 0;
  onProgress(0, total, 0);
  const sender = new PartSender(target, total, PART_BYTES, env.putPart, (bytes) => {
    sent = bytes;
    onProgress(sealed, total, sent);
  });
  // Sealed bytes are shown only until the storage has the first part; from then on the row
  // shows what is stored (fewer messages, fewer renders of the page).
  const progress = stepper(total, (done) => {
    if (sent === 0) onProgress(done, total, sent);
  });
  const digest = await sealContent(key, fields, input, async (batch) => {
    sealed += batch.length;
    progress(sealed);
    await sender.write(batch);
  });
  await sender.finish();
  return digest === undefined ? {} : { plaintextSha256: digest };
}

/**
 * What files.worker.ts serves (worker-rpc.ts), and InlineFilesCrypto runs in-thread; `env` is
 * where uploads stage and send (the browser's by default; tests pass their own).
 */
export function createFilesApi(env: UploadEnvironment = defaultUploadEnvironment) {
  return {
    decryptMetadata: decryptMetadataBatch,
    async decryptThumbnail(
      key: CryptoKey,
      file: { id: string; wrappedKey: string },
      encryptedThumbnail: string,
    ): Promise<Uint8Array> {
      const picture = await openThumbnail(key, file, encryptedThumbnail);
      // The decrypted picture's buffer moves to the page instead of being copied.
      return transfer(picture, [picture.buffer as ArrayBuffer]);
    },
    sealUploadMeta: (key: CryptoKey, input: UploadInput) => sealUploadMeta(key, input, env),
    stageUpload: (
      key: CryptoKey,
      fields: SealedUploadFields,
      input: UploadInput,
      onProgress?: (done: number, total: number) => void,
    ) => stageUpload(key, fields, input, onProgress, env),
    sendUpload: (
      key: CryptoKey,
      fields: SealedUploadFields,
      input: UploadInput,
      target: PartsTarget,
      onProgress?: (sealed: number, total: number, sent: number) => void,
    ) => sendUploadParts(key, fields, input, target, onProgress, env),
    releaseUpload: (staging: PreparedUpload['staging']) => releaseStaging(staging),
  };
}

export type FilesApi = ReturnType<typeof createFilesApi>;
