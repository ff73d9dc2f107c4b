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
import { encryptBlob } from './files-chunks';
import type { FileMetaOutcome, PreparedUpload, SealedFileMeta, UploadInput } from './files-messages';
import { openStaging, type StagingSink } from './files-staging';
import { makeThumbnail } from './files-thumbnail';

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

async function readPiece(blob: Blob): Promise<Uint8Array> {
  if (typeof blob.arrayBuffer === 'function') return new Uint8Array(await blob.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    reader.readAsArrayBuffer(blob);
  });
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
      const piece = await readPiece(blob.slice(offset, end));
      offset = end;
      controller.enqueue(piece);
    },
  });
}

export interface UploadEnvironment {
  openStaging(fileId: string, encryptedSize: number): Promise<StagingSink>;
  makeThumbnail(file: Blob, mimeType: string): Promise<Uint8Array | null>;
}

export const defaultUploadEnvironment: UploadEnvironment = { openStaging, makeThumbnail };

/**
 * Seals one file for upload (protocol v1 "Files"): a fresh file id (UUID v4) and file key, the
 * name, type and tags sealed with encryptFileMetadata, an optional thumbnail sealed with
 * encryptThumbnail, and the content encrypted in 64 KiB chunks, batch by batch (files-chunks.ts:
 * memory flat in the file size), into a staging sink (files-staging.ts).
 * `onProgress(done, total)` counts ciphertext bytes written.
 */
export async function prepareUpload(
  key: CryptoKey,
  input: UploadInput,
  onProgress: (done: number, total: number) => void = () => undefined,
  env: UploadEnvironment = defaultUploadEnvironment,
): Promise<PreparedUpload> {
  const fileId = newItemId();
  const size = input.file.size;
  const sealed = await encryptFileMetadata(key, fileId, {
    name: input.name,
    mimeType: input.mimeType,
    tags: input.tags,
  });
  let encryptedThumbnail: string | undefined;
  if (input.thumbnail) {
    try {
      const picture = await env.makeThumbnail(input.file, input.mimeType);
      if (picture) {
        const sealedPicture = await encryptThumbnail(sealed.fileKey, fileId, picture);
        if (sealedPicture.length <= SEALED_THUMBNAIL_MAX_CHARS) encryptedThumbnail = sealedPicture;
      }
    } catch {
      // A thumbnail is optional: the upload goes on without one.
    }
  }
  const iv = randomBytes(12);
  const encryptedSize = encryptedSizeFor(size, FILE_CHUNK_SIZE);
  onProgress(0, encryptedSize);
  const sink = await env.openStaging(fileId, encryptedSize);
  try {
    // Opt-in only (architecture.md "Virus scanning"): incremental, so memory stays flat.
    const hasher = input.fingerprint ? await createSHA256() : null;
    hasher?.init();
    let written = 0;
    let reported = 0;
    // Batches of whole chunks, sealed side by side (files-chunks.ts): the same bytes as
    // createEncryptStream, several times faster in the browser.
    await encryptBlob(
      input.file,
      { fileKey: sealed.fileKey, fileId, iv, size, chunkSize: FILE_CHUNK_SIZE },
      (batch) => {
        sink.write(batch);
        written += batch.length;
        if (written - reported >= PROGRESS_STEP || written === encryptedSize) {
          reported = written;
          onProgress(written, encryptedSize);
        }
      },
      hasher ? (plain) => hasher.update(plain) : undefined,
    );
    const { blob, staging } = await sink.finish();
    if (blob.size !== encryptedSize) {
      throw new Error(`The encrypted file has ${blob.size} bytes instead of ${encryptedSize}`);
    }
    const fields: PreparedUpload['fields'] = {
      fileId,
      size,
      encryptedSize,
      chunkSize: FILE_CHUNK_SIZE,
      iv: bytesToHex(iv),
      wrappedKey: sealed.wrappedKey,
      encryptedName: sealed.encryptedName,
      encryptedMimeType: sealed.encryptedMimeType,
      encryptedTags: sealed.encryptedTags,
    };
    if (encryptedThumbnail) fields.encryptedThumbnail = encryptedThumbnail;
    const prepared: PreparedUpload = { fields, ciphertext: blob, staging };
    if (hasher) prepared.plaintextSha256 = hasher.digest('hex');
    return prepared;
  } catch (error) {
    await sink.abort();
    throw error;
  }
}
