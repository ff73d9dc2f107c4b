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
}

export type FilesDownloadControl =
  { id: number; op: 'ack'; buffer?: ArrayBuffer } | { id: number; op: 'cancel' };

export type FilesDownloadMessage = FilesDownloadRequest | FilesFetchDecryptRequest | FilesDownloadControl;

export interface FilesDownloadErrorInfo {
  /** VaultCryptoError's code (DECRYPT_FAILED, STREAM_TRUNCATED, ...), KEY_UNAVAILABLE, or INTERNAL. */
  code: string;
  message: string;
  /**
   * 'key': the file key could not be opened; 'stream': the content failed while streaming;
   * (fetchDecrypt only) 'http': the storage answered `status`; 'network': the fetch failed.
   */
  phase: 'key' | 'stream' | 'http' | 'network';
  status?: number;
}

export type FilesDownloadResponse =
  | { id: number; type: 'stream'; plaintext: ReadableStream<Uint8Array> }
  /** fetchDecrypt: stored bytes received so far (`done`: the object ended). */
  | { id: number; type: 'received'; bytes: number; done: boolean }
  /** fetchDecrypt: the next verified plaintext, in a transferred buffer. */
  | { id: number; type: 'piece'; data: ArrayBuffer }
  | { id: number; type: 'done' }
  | { id: number; type: 'error'; error: FilesDownloadErrorInfo };
