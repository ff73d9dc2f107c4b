import type { RpcErrorInfo } from './worker-rpc';

/**
 * What crosses the files-download worker's boundary (files-download.worker.ts serves
 * createFilesDownloadApi of files-download-api.ts). The vault key travels as a NON-extractable
 * CryptoKey (structured clone keeps the flag); the worker keeps no key after the call ends.
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

export interface FilesDownloadErrorInfo extends RpcErrorInfo {
  /** VaultCryptoError's code (DECRYPT_FAILED, STREAM_TRUNCATED, ...), KEY_UNAVAILABLE, or INTERNAL. */
  code: string;
  /**
   * 'key': the file key could not be opened; 'stream': the content failed while streaming;
   * (fetchDecrypt only) 'http': the storage answered `status`; 'network': the fetch failed.
   */
  phase: 'key' | 'stream' | 'http' | 'network';
  status?: number;
}
