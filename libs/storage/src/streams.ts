import { Transform, type TransformCallback } from 'node:stream';
import { ErrorCode, VaultError } from '@vault/contracts';
import type { ByteRange } from './storage-driver';

/** The longest a signed URL may live: S3's presigner refuses more than 7 days. */
export const MAX_URL_TTL_SECONDS = 7 * 24 * 3600;

/** `put` beyond `maxBytes`: the object was refused and nothing was stored. */
export function objectTooLarge(maxBytes: number): VaultError {
  return new VaultError(ErrorCode.FILE_TOO_LARGE, undefined, { maxBytes });
}

export function isObjectTooLarge(err: unknown): boolean {
  return err instanceof VaultError && err.code === ErrorCode.FILE_TOO_LARGE;
}

export function objectNotFound(): VaultError {
  return new VaultError(ErrorCode.NOT_FOUND, 'Stored object not found');
}

/**
 * Counts the bytes that flow through and fails the stream (before passing the byte that
 * crosses the limit on) once more than `maxBytes` arrive. `onLimit` runs first, so a driver
 * can cut an upload that is already on the wire. With `minBytes`, a stream that ends shorter
 * fails too (UPLOAD_SIZE_MISMATCH, after `onLimit`), before its end reaches the destination.
 */
export class ByteLimit extends Transform {
  bytes = 0;
  exceeded = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onLimit?: () => void,
    private readonly minBytes?: number,
  ) {
    super();
  }

  override _flush(callback: TransformCallback): void {
    if (this.minBytes !== undefined && this.bytes < this.minBytes) {
      this.onLimit?.();
      callback(
        new VaultError(
          ErrorCode.UPLOAD_SIZE_MISMATCH,
          `The body has ${this.bytes} bytes; ${this.minBytes} were expected`,
        ),
      );
      return;
    }
    callback();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      this.exceeded = true;
      this.onLimit?.();
      callback(objectTooLarge(this.maxBytes));
      return;
    }
    callback(null, chunk);
  }
}

/** Passes on `length` bytes starting at `skip`, then ends (for servers that ignore `Range`). */
export class ByteWindow extends Transform {
  private position = 0;

  constructor(
    private readonly skip: number,
    private readonly length: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const from = Math.max(0, this.skip - this.position);
    const to = Math.min(chunk.length, this.skip + this.length - this.position);
    this.position += chunk.length;
    if (to > from) this.push(chunk.subarray(from, to));
    callback();
  }
}

export function assertMaxBytes(maxBytes: number): void {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new VaultError(ErrorCode.VALIDATION_FAILED, 'maxBytes must be a whole number of bytes');
  }
}

export function assertRange(range: ByteRange | undefined): void {
  if (range === undefined) return;
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new VaultError(ErrorCode.VALIDATION_FAILED, 'Invalid byte range');
  }
}

export function assertTtl(expiresInSeconds: number): void {
  if (
    !Number.isSafeInteger(expiresInSeconds) ||
    expiresInSeconds < 1 ||
    expiresInSeconds > MAX_URL_TTL_SECONDS
  ) {
    throw new VaultError(
      ErrorCode.VALIDATION_FAILED,
      `expiresInSeconds must be a whole number from 1 to ${MAX_URL_TTL_SECONDS}`,
    );
  }
}

export function assertContentLength(contentLength: number): void {
  if (!Number.isSafeInteger(contentLength) || contentLength < 0) {
    throw new VaultError(ErrorCode.VALIDATION_FAILED, 'contentLength must be a whole number of bytes');
  }
}
