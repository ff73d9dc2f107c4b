/**
 * What crosses the files worker's boundary (files.worker.ts serves createFilesApi of files-ops.ts;
 * an upload's progress comes back through its callback before the answer). The vault key travels
 * with each call as a NON-extractable CryptoKey (structured clone keeps the flag): the worker
 * keeps no key between calls, and the per-file keys it makes never leave it.
 */

/** What metadata decryption needs of a file record (nothing else crosses the boundary). */
export interface SealedFileMeta {
  id: string;
  wrappedKey: string;
  encryptedName: string;
  encryptedMimeType: string;
  encryptedTags: string;
}

export interface FileMetaPlain {
  name: string;
  mimeType: string;
  tags: string[];
}

export type FileMetaOutcome =
  { id: string; ok: true; meta: FileMetaPlain } | { id: string; ok: false; error: string };

/** One file to seal for upload: its bytes, and the plaintext metadata that is sealed beside them. */
export interface UploadInput {
  file: Blob;
  /** The name and type shown later (decrypted on this device only). */
  name: string;
  mimeType: string;
  tags: string[];
  /** Draw and seal a small picture of the image (jpeg, png, gif, webp). */
  thumbnail: boolean;
  /**
   * The account opted in to the malware-fingerprint check: also compute the plaintext's SHA-256
   * (in the same pass as sealing). Never computed otherwise.
   */
  fingerprint?: boolean;
}

/** The sealed metadata of POST /api/files/upload-url (and /cloudinary/upload-url), made on this device. */
export interface SealedUploadFields {
  fileId: string;
  size: number;
  encryptedSize: number;
  chunkSize: number;
  iv: string;
  wrappedKey: string;
  encryptedName: string;
  encryptedMimeType: string;
  encryptedTags: string;
  encryptedThumbnail?: string;
}

/**
 * A file encrypted and ready to send: the sealed fields and the ciphertext as a Blob (bytes
 * held by the browser's blob store or by a staging file, never as one big JS buffer).
 */
export interface PreparedUpload {
  fields: SealedUploadFields;
  ciphertext: Blob;
  /** Where the ciphertext waits: a file in the origin-private file system, or blob memory. */
  staging: { kind: 'opfs'; name: string } | { kind: 'memory' };
  /** SHA-256 of the plaintext (64 lowercase hex), only when `fingerprint` was asked for. */
  plaintextSha256?: string;
}

/** An upload sent in parts by the worker (files-parts.ts): all that is left to report. */
export interface SentUpload {
  /** SHA-256 of the plaintext (64 lowercase hex), only when `fingerprint` was asked for. */
  plaintextSha256?: string;
}
