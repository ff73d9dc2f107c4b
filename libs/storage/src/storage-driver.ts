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
 * How an object of `total` bytes is cut into parts of `partSize` bytes (the last one shorter):
 * the parts of an upload sent straight to the store (S3 multipart), numbered from 1.
 */
export interface PartsLayout {
  total: number;
  partSize: number;
}

/** The parts of an object: `ceil(total / partSize)`, at least one. */
export function partCount({ total, partSize }: PartsLayout): number {
  return Math.max(1, Math.ceil(total / partSize));
}

/** One part of an upload passed on as one chunk of the store's own chunked upload (Cloudinary). */
export interface UploadChunk extends UploadPart {
  /** The store's name of the chunked upload (Cloudinary's `X-Unique-Upload-Id`). */
  uploadId: string;
}

/** What the store answered to one chunk. */
export interface UploadChunkResult {
  /** The last chunk arrived and the object is in place (exactly like after `put`). */
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
  /**
   * Optional: drivers whose store takes parts the browser sends STRAIGHT to it (S3 multipart
   * upload). Starts one and answers the store's upload id; nothing is visible under `key` until
   * `completeMultipart`.
   */
  startMultipart?(key: string): Promise<string>;
  /** One URL per part (`partCount(layout)`, in order), each a PUT of exactly that part's bytes. */
  signMultipartParts?(
    key: string,
    uploadId: string,
    opts: PartsLayout & { expiresInSeconds: number },
  ): Promise<SignedUrl[]>;
  /**
   * Lists the parts the store holds and completes the upload with them, only if they are exactly
   * the layout (every part, each of its size); else `VaultError(UPLOAD_SIZE_MISMATCH)` and the
   * upload stays as it was. `null` when the store knows no such upload (completed or aborted).
   */
  completeMultipart?(key: string, uploadId: string, layout: PartsLayout): Promise<StoredObjectInfo | null>;
  /** Aborts the upload and frees its parts; an upload the store no longer knows counts as aborted. */
  abortMultipart?(key: string, uploadId: string): Promise<void>;
  /**
   * Optional: drivers whose store takes a chunked upload of its own (Cloudinary): the part is
   * passed on, streamed, as the chunk `first..last` of the upload `uploadId`. The CALLER keeps
   * the order the store needs (first chunk first, the last one after all others returned) and
   * what was stored so far; a failed chunk can be sent again.
   */
  sendChunk?(key: string, body: Readable, chunk: UploadChunk): Promise<UploadChunkResult>;
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
