import { unwrapFileKey } from '@vault/crypto';
import { cryptoErrorCode } from './crypto-service';
import { createBatchedDecryptStream } from './files-chunks';
import type { FileDecryptParams, FilesDownloadErrorInfo } from './files-download-messages';

/** Stored bytes opened per batch. */
export const DECRYPT_BATCH_BYTES = 1024 * 1024;

/**
 * The file-content operations on @vault/crypto. They run inside files-download.worker.ts in the
 * browser, and in-thread where a stream cannot be handed to a Worker (tests, older Safari).
 */

/** The file's key as a non-extractable CryptoKey; DECRYPT_FAILED if `wrappedKey` is not this file's under this vault key. */
export function openFileKey(vaultKey: CryptoKey, file: FileDecryptParams): Promise<CryptoKey> {
  return unwrapFileKey(vaultKey, file.fileId, file.wrappedKey);
}

/**
 * A failure as the page gets it: where (`phase`), VaultCryptoError's code (a file key that does
 * not open under this vault key is KEY_UNAVAILABLE) and message; `extra` (the status) for fetches.
 */
export function downloadErrorInfo(
  phase: FilesDownloadErrorInfo['phase'],
  error: unknown,
  extra: Partial<FilesDownloadErrorInfo> = {},
): FilesDownloadErrorInfo {
  const code = cryptoErrorCode(error);
  const message = error instanceof Error && error.message ? error.message : String(error);
  if (phase === 'key') {
    return { code: code === 'DECRYPT_FAILED' ? 'KEY_UNAVAILABLE' : (code ?? 'INTERNAL'), message, phase };
  }
  return { code: code ?? 'INTERNAL', message, phase, ...extra };
}

export interface DecryptingFile {
  /** Authenticated plaintext, chunk by chunk. Closes only after the last chunk verified; errors otherwise. */
  plaintext: ReadableStream<Uint8Array>;
  /**
   * Settles when the stored bytes have all gone through the decrypt transform: resolves when
   * every chunk, the chunk count and the "last" marker checked out; rejects with the
   * VaultCryptoError (code intact: DECRYPT_FAILED, STREAM_TRUNCATED, STREAM_EXTENDED) otherwise,
   * or with the reason the input or the output was cancelled.
   */
  done: Promise<void>;
}

/**
 * Pipes the stored object's bytes through the protocol's decrypt transform (64 KiB chunks, each
 * tag checked before its plaintext is released), in batches of about 1 MiB (files-chunks.ts): a
 * few batches in flight, so memory does not grow with the file, and the plaintext crosses back to
 * the page in big pieces.
 */
export function decryptFileStream(
  fileKey: CryptoKey,
  file: FileDecryptParams,
  encrypted: ReadableStream<Uint8Array>,
): DecryptingFile {
  const transform = createBatchedDecryptStream({
    fileKey,
    fileId: file.fileId,
    iv: file.iv,
    size: file.size,
    chunkSize: file.chunkSize,
    // 1 MiB: 4 MiB batches were no faster and left the renderer's peak growing with the file
    // (bench/files.bench.mjs: +109 MiB at 25 MiB, +232 at 100; 1 MiB: +116 and +113).
    batchBytes: DECRYPT_BATCH_BYTES,
  });
  // pipeTo (not pipeThrough) so the transform's own error, with its code, is what `done` rejects with.
  const done = encrypted.pipeTo(transform.writable);
  done.catch(() => undefined);
  return { plaintext: transform.readable, done };
}
