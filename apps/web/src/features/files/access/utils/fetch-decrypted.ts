import { isAbortError } from '../../../../lib/api-client';
import { cryptoErrorCode } from '../../../../workers/crypto-service';
import {
  FILE_DECRYPT_CODES,
  FetchDecryptError,
  FetchDecryptSinkError,
  INTEGRITY_CODES,
  type FetchDecryptHandlers,
  type FileDecryptParams,
  type FilesDownloadCrypto,
} from '../../../../workers/files-download-crypto';
import { ACCESS_MESSAGES } from './access-messages';

/** Why a transfer failed; the UI words each kind its own way (download notice, preview panel). */
export type FileAccessErrorKind = 'cancelled' | 'network' | 'http' | 'integrity' | 'key' | 'sink' | 'other';

export class FileAccessError extends Error {
  readonly kind: FileAccessErrorKind;
  readonly status: number | undefined;

  constructor(
    kind: FileAccessErrorKind,
    message: string,
    options: { status?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'FileAccessError';
    this.kind = kind;
    this.status = options.status;
  }
}

export function isCancelled(error: unknown): boolean {
  return error instanceof FileAccessError && error.kind === 'cancelled';
}

/** Where verified plaintext goes: a file on disk (File System Access API) or memory (a Blob, a preview). */
export interface PlaintextSink {
  /** The sink holds on to the chunks it was given (memory): their buffers must not be reused. */
  readonly keepsChunks?: boolean;
  write(chunk: Uint8Array<ArrayBuffer>): Promise<void>;
  /** Every byte arrived and was verified: keep the result. */
  close(): Promise<void>;
  /** Something failed: throw away whatever was written (a partial file must never look complete). */
  abort(reason: unknown): Promise<void>;
}

export type TransferStage = 'downloading' | 'decrypting';

export interface FetchDecryptedOptions {
  /** The signed URL of the stored object, already resolved and checked (resolveStorageUrl). */
  url: URL;
  file: FileDecryptParams;
  /** Size of the stored object (plaintext + 16 bytes per chunk): the download percent counts against it. */
  encryptedSize: number;
  vaultKey: CryptoKey;
  crypto: FilesDownloadCrypto;
  sink: PlaintextSink;
  signal: AbortSignal;
  /**
   * A fetch to use on this thread (tests). Without one, a crypto that can fetch in its worker
   * (fetchDecrypt) does so; otherwise the global fetch streams the bytes to the decryptor.
   */
  fetch?: typeof fetch;
  /** Called when the stage or the whole percent changes. */
  onProgress?: (stage: TransferStage, percent: number) => void;
}

/**
 * The signed URL from download-url / preview as a URL to fetch: a relative one (`/api/files/blob/...`,
 * this deployment's own storage) is resolved against the API's origin; an absolute one (an S3
 * presigned URL) is used as it is. Anything but http(s) is refused.
 */
export function resolveStorageUrl(url: string, apiBaseUrl: string, pageUrl: string): URL {
  let resolved: URL;
  try {
    resolved = new URL(url, new URL(apiBaseUrl, pageUrl));
  } catch {
    throw new FileAccessError('other', ACCESS_MESSAGES.unsafeUrl);
  }
  if (resolved.protocol !== 'https:' && resolved.protocol !== 'http:') {
    throw new FileAccessError('other', ACCESS_MESSAGES.unsafeUrl);
  }
  return resolved;
}

const percentOf = (part: number, whole: number): number =>
  whole <= 0 ? 100 : Math.min(100, Math.floor((part * 100) / whole));

/**
 * Fetches a stored object and decrypts it as it streams:
 *
 *   fetch(url) → response.body → (bytes counted: Downloading n%) → decrypt transform, in the
 *   files-download worker → verified plaintext → sink
 *
 * The signed URL needs no Authorization header and no cookie, so none is sent (an S3 presigned URL
 * must not see either). The sink is closed only when the plaintext stream ended cleanly AND the
 * decryptor's verdict is "verified"; on any failure it is aborted, so a tampered, truncated or
 * interrupted object never ends as a file that looks complete.
 */
export async function fetchDecrypted(options: FetchDecryptedOptions): Promise<void> {
  const { file, sink, signal } = options;
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  let lastStage: TransferStage | null = null;
  let lastPercent = -1;
  const report = (stage: TransferStage, percent: number) => {
    if (stage === lastStage && percent === lastPercent) return;
    lastStage = stage;
    lastPercent = percent;
    options.onProgress?.(stage, percent);
  };
  const cancelled = () => new FileAccessError('cancelled', 'Cancelled');
  if (signal.aborted) throw cancelled();

  report('downloading', 0);
  const inWorker = options.crypto.fetchDecrypt;
  if (!options.fetch && inWorker) {
    await fetchInWorker(options, inWorker.bind(options.crypto), report, cancelled);
    return;
  }
  let response: Response;
  try {
    response = await fetchImpl(options.url.href, {
      method: 'GET',
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
      signal,
    });
  } catch (error) {
    if (signal.aborted || isAbortError(error)) throw cancelled();
    throw new FileAccessError('network', ACCESS_MESSAGES.downloadFailed, { cause: error });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new FileAccessError('http', ACCESS_MESSAGES.encryptedContentFailed(response.status), {
      status: response.status,
    });
  }
  if (!response.body) throw new FileAccessError('network', ACCESS_MESSAGES.downloadFailed);

  // The stored bytes, counted on their way to the decryptor.
  const body = response.body.getReader();
  let received = 0;
  let sourceError: unknown = null;
  let sourceDone = false;
  const encrypted = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await body.read();
        if (done) {
          sourceDone = true;
          controller.close();
          return;
        }
        received += value.byteLength;
        if (received < options.encryptedSize)
          report('downloading', percentOf(received, options.encryptedSize));
        controller.enqueue(value);
      } catch (error) {
        sourceError = error;
        controller.error(error);
      }
    },
    cancel(reason) {
      return body.cancel(reason);
    },
  });

  let decrypted;
  try {
    decrypted = await options.crypto.decrypt(options.vaultKey, file, encrypted);
  } catch (error) {
    await body.cancel().catch(() => undefined);
    if (signal.aborted) throw cancelled();
    const code = cryptoErrorCode(error);
    if (code === FILE_DECRYPT_CODES.keyUnavailable) {
      throw new FileAccessError('key', ACCESS_MESSAGES.keyUnavailable, { cause: error });
    }
    throw new FileAccessError(
      'other',
      error instanceof Error ? error.message : ACCESS_MESSAGES.downloadFailed,
      {
        cause: error,
      },
    );
  }

  const reader = decrypted.plaintext.getReader();
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', onAbort);
  let written = 0;
  let sinkError: unknown = null;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      try {
        await sink.write(value as Uint8Array<ArrayBuffer>);
      } catch (error) {
        sinkError = error;
        throw error;
      }
      written += value.byteLength;
      if (sourceDone || received >= options.encryptedSize)
        report('decrypting', percentOf(written, file.size));
    }
    await decrypted.verified;
    report('decrypting', 100);
    await sink.close();
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    await sink.abort(error).catch(() => undefined);
    if (signal.aborted) throw cancelled();
    if (sourceError !== null) {
      throw new FileAccessError('network', ACCESS_MESSAGES.downloadFailed, { cause: sourceError });
    }
    if (sinkError !== null) {
      const reason = sinkError instanceof Error && sinkError.message ? `: ${sinkError.message}` : '';
      throw new FileAccessError('sink', `${ACCESS_MESSAGES.downloadFailed}${reason}`, { cause: sinkError });
    }
    // The plaintext stream's own error crossed a realm and lost its code: the verdict has it.
    const verdict = await decrypted.verified.then(
      () => null,
      (e: unknown) => e,
    );
    const code = cryptoErrorCode(verdict ?? error);
    if (code && INTEGRITY_CODES.has(code)) {
      throw new FileAccessError('integrity', ACCESS_MESSAGES.integrity, { cause: verdict ?? error });
    }
    throw new FileAccessError('other', ACCESS_MESSAGES.downloadFailed, { cause: verdict ?? error });
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * The same transfer with the worker fetching (WorkerFilesDownloadCrypto.fetchDecrypt): the stored
 * bytes never reach this thread, and the verified plaintext arrives in transferred buffers, handed
 * back for reuse once written when the sink keeps no reference. Measured with
 * bench/files.bench.mjs (the stream path copied every byte into the worker and back, and its
 * garbage made the renderer's peak grow with the file). Failures map as in fetchDecrypted.
 */
async function fetchInWorker(
  options: FetchDecryptedOptions,
  fetchDecrypt: NonNullable<FilesDownloadCrypto['fetchDecrypt']>,
  report: (stage: TransferStage, percent: number) => void,
  cancelled: () => FileAccessError,
): Promise<void> {
  const { file, sink, signal } = options;
  let received = 0;
  let sourceDone = false;
  let written = 0;
  const handlers: FetchDecryptHandlers = {
    onReceived(bytes, done) {
      received = bytes;
      if (done) sourceDone = true;
      else if (received < options.encryptedSize)
        report('downloading', percentOf(received, options.encryptedSize));
    },
    async onPiece(piece) {
      // Called again before this write ends: DiskSink and MemorySink both queue in order.
      await sink.write(piece);
      written += piece.byteLength;
      if (sourceDone || received >= options.encryptedSize)
        report('decrypting', percentOf(written, file.size));
      return !sink.keepsChunks;
    },
  };
  let closing = false;
  try {
    await fetchDecrypt(options.vaultKey, file, options.url.href, handlers, signal);
    report('decrypting', 100);
    closing = true;
    await sink.close();
  } catch (error) {
    await sink.abort(error).catch(() => undefined);
    if (signal.aborted) throw cancelled();
    if (closing || error instanceof FetchDecryptSinkError) {
      const cause = error instanceof FetchDecryptSinkError ? error.reason : error;
      const reason = cause instanceof Error && cause.message ? `: ${cause.message}` : '';
      throw new FileAccessError('sink', `${ACCESS_MESSAGES.downloadFailed}${reason}`, { cause });
    }
    if (error instanceof FetchDecryptError) {
      switch (error.phase) {
        case 'key':
          if (error.code === FILE_DECRYPT_CODES.keyUnavailable) {
            throw new FileAccessError('key', ACCESS_MESSAGES.keyUnavailable, { cause: error });
          }
          throw new FileAccessError('other', error.message || ACCESS_MESSAGES.downloadFailed, {
            cause: error,
          });
        case 'http':
          throw new FileAccessError('http', ACCESS_MESSAGES.encryptedContentFailed(error.status ?? 0), {
            status: error.status,
            cause: error,
          });
        case 'network':
          throw new FileAccessError('network', ACCESS_MESSAGES.downloadFailed, { cause: error });
        case 'stream':
          if (INTEGRITY_CODES.has(error.code)) {
            throw new FileAccessError('integrity', ACCESS_MESSAGES.integrity, { cause: error });
          }
      }
    }
    throw new FileAccessError('other', ACCESS_MESSAGES.downloadFailed, { cause: error });
  }
}

/** Verified plaintext kept in memory: the Blob path of a download, and every preview. */
export class MemorySink implements PlaintextSink {
  readonly keepsChunks = true;
  private chunks: Uint8Array<ArrayBuffer>[] = [];
  private total = 0;
  private complete = false;

  /** `maxBytes`: refuse to hold more than this (previews are capped at the 100 MB file limit). */
  constructor(private readonly maxBytes: number = Number.POSITIVE_INFINITY) {}

  get size(): number {
    return this.total;
  }

  async write(chunk: Uint8Array<ArrayBuffer>): Promise<void> {
    if (this.total + chunk.byteLength > this.maxBytes) throw new Error('the file is larger than expected');
    this.chunks.push(chunk);
    this.total += chunk.byteLength;
  }

  async close(): Promise<void> {
    this.complete = true;
  }

  async abort(): Promise<void> {
    this.chunks = [];
    this.total = 0;
    this.complete = false;
  }

  private parts(): Uint8Array<ArrayBuffer>[] {
    if (!this.complete) throw new Error('The file is not complete');
    return this.chunks;
  }

  toBlob(type: string): Blob {
    return new Blob(this.parts(), { type });
  }

  /** One contiguous copy (pdf.js and text decoding need it). */
  toBytes(): Uint8Array<ArrayBuffer> {
    const parts = this.parts();
    if (parts.length === 1 && parts[0]) return parts[0];
    const out = new Uint8Array(this.total);
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.byteLength;
    }
    return out;
  }

  /** Drops the chunks (call once they have been turned into what the preview shows). */
  release(): void {
    this.chunks = [];
  }
}
