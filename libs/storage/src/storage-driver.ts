import type { Readable } from 'node:stream';
import type { StorageType } from '@vault/contracts';

/** What a driver knows about a stored object. */
export interface StoredObjectInfo {
  /** Bytes stored (ciphertext: the files service compares it with `encryptedSize`). */
  size: number;
}

/** A URL that allows exactly one operation on exactly one object, until `expiresAt`. */
export interface SignedUrl {
  url: string;
  method: 'PUT' | 'GET';
  expiresAt: Date;
  /** Headers the client must send with the request (none are needed by the drivers here). */
  headers?: Record<string, string>;
}

/** An inclusive byte range, as in HTTP `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

/** One part of an upload sent in parts: inclusive bytes `first..last` of an object of `total` bytes. */
export interface UploadPart {
  first: number;
  last: number;
  total: number;
}

/** Where an upload sent in parts stands after a part was stored. */
export interface UploadPartResult {
  /** Bytes stored so far (the next part starts here). */
  stored: number;
  /** The last part arrived: the object is now in place, exactly like after `put`. */
  complete: boolean;
}

/**
 * One place where encrypted file objects live. The bytes are ciphertext already: a driver
 * never sees a key and never looks inside. Object keys come from `objectKey()` and are
 * checked by every method (see object-key.ts).
 */
export interface StorageDriver {
  readonly type: StorageType;
  /** 'Local disk' | 'S3 / R2 / MinIO' | 'Cloudinary' (shown by GET /api/files/storage-types). */
  readonly label: string;
  /** URL the client PUTs the encrypted bytes to (Content-Type application/octet-stream); one object, expires. */
  createUploadUrl(key: string, opts: { contentLength: number; expiresInSeconds: number }): Promise<SignedUrl>;
  /** URL the client GETs the encrypted bytes from; one object, expires. */
  createDownloadUrl(key: string, opts: { expiresInSeconds: number }): Promise<SignedUrl>;
  /** Server-side streamed write (never buffers the whole object): refuses (and leaves nothing) beyond maxBytes. */
  put(key: string, body: Readable, opts: { maxBytes: number }): Promise<StoredObjectInfo>;
  /**
   * Server-side streamed read (scan worker, and the files service's blob route for drivers the
   * browser can't reach). Optional inclusive byte range, clamped to the object's end.
   * A missing object rejects with `VaultError(NOT_FOUND)`.
   */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * Optional: drivers that take an upload in PARTS, in order (the local disk). The part is
   * written behind the bytes stored so far into a partial beside the object; `first` 0 starts
   * over, any other `first` must equal the bytes stored so far (else `VaultError(CONFLICT)`).
   * A body shorter or longer than the part is refused and the partial keeps its earlier length.
   * After the last part (`last + 1 === total`) the object is renamed into place. Parts of one
   * key are serialised.
   */
  appendPart?(key: string, body: Readable, part: UploadPart): Promise<UploadPartResult>;
  /** null when absent. */
  stat(key: string): Promise<StoredObjectInfo | null>;
  /** Idempotent: deleting a missing object succeeds. Also removes a partial upload (appendPart). */
  delete(key: string): Promise<void>;
}

export const STORAGE_LABELS: Record<StorageType, string> = {
  local: 'Local disk',
  s3: 'S3 / R2 / MinIO',
  cloudinary: 'Cloudinary',
};
