/**
 * The files-download worker's protocol (files-download.worker.ts). One `decrypt` request per
 * file; the worker answers it with several messages, all carrying the request's `id`:
 *
 *   {type: 'stream'}  the file key opened; `plaintext` (transferred) yields the verified plaintext
 *   {type: 'done'}    every chunk and the end marker verified: the plaintext stream closes cleanly
 *   {type: 'error'}   anything failed (before or during the stream); the plaintext stream errors too
 *
 * The stored bytes arrive as a transferred ReadableStream (`encrypted`), and the plaintext goes
 * back the same way, so the bytes flow with backpressure and no copy is kept in either realm.
 * The vault key travels as a NON-extractable CryptoKey (structured clone keeps the flag); the
 * worker keeps no key after the request ends.
 */

/** What decryption needs of a file: its id, wrapped key and content framing (from the FileDto). */
export interface FileDecryptParams {
  fileId: string;
  wrappedKey: string;
  /** The 12-byte content IV, hex. */
  iv: string;
  chunkSize: number;
  /** Plaintext size in bytes. */
  size: number;
}

export interface FilesDownloadRequest {
  id: number;
  op: 'decrypt';
  vaultKey: CryptoKey;
  file: FileDecryptParams;
  encrypted: ReadableStream<Uint8Array>;
}

/**
 * The worker fetches the stored object itself (`fetchDecrypt`): the ciphertext never crosses to
 * the page, and the verified plaintext comes back as `piece` messages whose buffers are
 * transferred, not copied. At most a few pieces are unacknowledged: the page answers each with
 * `ack` once it is written (handing the buffer back for reuse when its sink keeps no reference),
 * which is the backpressure. `cancel` stops the fetch.
 */
export interface FilesFetchDecryptRequest {
  id: number;
  op: 'fetchDecrypt';
  vaultKey: CryptoKey;
  file: FileDecryptParams;
  /** The signed URL, resolved and checked by the page (http(s) only); fetched without credentials. */
  url: string;
  /**
   * The file the user picked (structured-cloneable). With it the worker writes the plaintext there
   * itself (no `piece` messages): it closes the writable only after the last chunk verified and
   * aborts it otherwise, which discards Chromium's swap file. It fails with phase 'sink' and
   * SAVE_UNAVAILABLE, before fetching anything, when it cannot open the file (the page then writes).
   */
  save?: FileSystemFileHandle;
}

/** fetchDecrypt with `save`: the picked file could not be opened in the worker (nothing was fetched). */
export const SAVE_UNAVAILABLE = 'SAVE_UNAVAILABLE';

export type FilesDownloadControl =
  { id: number; op: 'ack'; buffer?: ArrayBuffer } | { id: number; op: 'cancel' };

export type FilesDownloadMessage = FilesDownloadRequest | FilesFetchDecryptRequest | FilesDownloadControl;

export interface FilesDownloadErrorInfo {
  /** VaultCryptoError's code (DECRYPT_FAILED, STREAM_TRUNCATED, ...), KEY_UNAVAILABLE, or INTERNAL. */
  code: string;
  message: string;
  /**
   * 'key': the file key could not be opened; 'stream': the content failed while streaming;
   * (fetchDecrypt only) 'http': the storage answered `status`; 'network': the fetch failed;
   * 'sink': writing to `save` failed (SAVE_UNAVAILABLE: it could not even be opened).
   */
  phase: 'key' | 'stream' | 'http' | 'network' | 'sink';
  status?: number;
}

export type FilesDownloadResponse =
  | { id: number; type: 'stream'; plaintext: ReadableStream<Uint8Array> }
  /** fetchDecrypt: stored bytes received so far (`done`: the object ended). */
  | { id: number; type: 'received'; bytes: number; done: boolean }
  /** fetchDecrypt: the next verified plaintext, in a transferred buffer. */
  | { id: number; type: 'piece'; data: ArrayBuffer }
  /** fetchDecrypt with `save`: verified plaintext bytes handed to the file so far. */
  | { id: number; type: 'saved'; bytes: number }
  | { id: number; type: 'done' }
  | { id: number; type: 'error'; error: FilesDownloadErrorInfo };
