import { CryptoOperationError } from './crypto-service';
import type { FilesDownloadApi } from './files-download-api';
import type { FileDecryptParams, FilesDownloadErrorInfo } from './files-download-messages';
import { WorkerClient, localClient, transfer, type RpcClient, type RpcErrorInfo } from './worker-rpc';

export type { FileDecryptParams } from './files-download-messages';

/** The failure codes a caller switches on (besides VaultCryptoError's own codes). */
export const FILE_DECRYPT_CODES = {
  /** The file key could not be opened with the vault key (wrong vault, or a wrapped key that is not this file's). */
  keyUnavailable: 'KEY_UNAVAILABLE',
  /** The worker could not start or died. */
  workerFailed: 'UNSUPPORTED_ENVIRONMENT',
} as const;

/** Codes that mean the stored object is not what was uploaded (tampered, truncated, extended, reordered). */
export const INTEGRITY_CODES: ReadonlySet<string> = new Set([
  'DECRYPT_FAILED',
  'STREAM_TRUNCATED',
  'STREAM_EXTENDED',
]);

export interface DecryptedFileStream {
  /** Verified plaintext; read it to the end. It errors (never closes) when any check fails. */
  plaintext: ReadableStream<Uint8Array>;
  /**
   * The verdict, with its code: resolves once every chunk and the end marker checked out; rejects
   * with a CryptoOperationError (DECRYPT_FAILED, STREAM_TRUNCATED, STREAM_EXTENDED, ...)
   * otherwise. A plaintext stream that errored always has a rejected verdict to explain it.
   */
  verified: Promise<void>;
}

/** What the page does with a fetchDecrypt's progress and plaintext. */
export interface FetchDecryptHandlers {
  /** Stored bytes received so far; `done` once the object has ended. */
  onReceived(bytes: number, done: boolean): void;
  /**
   * Writes the next piece of verified plaintext. Pieces come in order and a piece may arrive
   * before the previous write finished: the write must be started (queued) before this returns.
   * Resolves true when the piece's buffer is free again (the worker reuses it), false when kept.
   */
  onPiece(piece: Uint8Array<ArrayBuffer>): Promise<boolean>;
}

/** A fetchDecrypt that failed in the worker: where (`phase`) and, for 'http', the storage's status. */
export class FetchDecryptError extends CryptoOperationError {
  readonly phase: FilesDownloadErrorInfo['phase'];
  readonly status: number | undefined;

  constructor(info: FilesDownloadErrorInfo) {
    super(info.code, info.message);
    this.name = 'FetchDecryptError';
    this.phase = info.phase;
    this.status = info.status;
  }
}

/** The page's handler failed (writing a piece): the worker's fetch was cancelled. */
export class FetchDecryptSinkError extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : String(reason));
    this.name = 'FetchDecryptSinkError';
  }
}

/** What file access asks of the crypto: the content of one stored object, decrypted as it streams. */
export interface FilesDownloadCrypto {
  /** Starts what a transfer will need (the worker) ahead of it; failures wait for the real call. */
  warm?(): void;
  /**
   * Where it exists (the worker), file access uses this instead of decrypt(): the worker fetches
   * `url` (no credentials) and decrypts, and only verified plaintext crosses to the page, in
   * transferred buffers. Resolves once every chunk and the end verified and every piece was
   * written; rejects with FetchDecryptError (phase key / http / network / stream),
   * FetchDecryptSinkError, or, when `signal` aborts, an AbortError.
   */
  fetchDecrypt?(
    vaultKey: CryptoKey,
    file: FileDecryptParams,
    url: string,
    handlers: FetchDecryptHandlers,
    signal: AbortSignal,
  ): Promise<void>;
  /**
   * Opens the file key with the vault key and decrypts `encrypted` (the stored object's bytes).
   * Rejects (code KEY_UNAVAILABLE, ...) when the key cannot be opened; `encrypted` is then cancelled.
   */
  decrypt(
    vaultKey: CryptoKey,
    file: FileDecryptParams,
    encrypted: ReadableStream<Uint8Array>,
  ): Promise<DecryptedFileStream>;
}

/**
 * decrypt() as a call to the files-download API: the call's answer is the verdict, and the
 * plaintext stream arrives before it (`onStream`), once the file key opened.
 */
abstract class RpcFilesDownloadCrypto implements FilesDownloadCrypto {
  constructor(protected readonly rpc: RpcClient<FilesDownloadApi>) {}

  decrypt(
    vaultKey: CryptoKey,
    file: FileDecryptParams,
    encrypted: ReadableStream<Uint8Array>,
  ): Promise<DecryptedFileStream> {
    return new Promise<DecryptedFileStream>((resolve, reject) => {
      const verified = this.rpc.call(
        'decrypt',
        vaultKey,
        { ...file },
        transfer(encrypted, [encrypted]),
        (plaintext) => resolve({ plaintext, verified }),
      );
      // A failure before the stream fails decrypt() itself; a caller that stops at the first
      // failure may never look at `verified`.
      verified.catch(reject);
    });
  }
}

/**
 * The same operations on the calling thread (localClient: answers and failures look exactly
 * alike). WebCrypto still does the AES-GCM work off the main thread in every browser; what stays
 * here is moving 64 KiB buffers. Used where a stream cannot be handed to a Worker (browsers
 * without transferable streams), where no Worker exists (jsdom tests), and by tests that want the
 * real crypto in-thread. Loaded lazily.
 */
export class InlineFilesDownloadCrypto extends RpcFilesDownloadCrypto {
  constructor() {
    super(localClient(async () => (await import('./files-download-api')).createFilesDownloadApi()));
  }
}

/** Whether this browser can hand a ReadableStream to a Worker (Chromium 87+, Firefox 103+; not every Safari). */
export function canTransferStreams(): boolean {
  if (typeof MessageChannel === 'undefined' || typeof ReadableStream === 'undefined') return false;
  const channel = new MessageChannel();
  try {
    const probe = new ReadableStream();
    channel.port1.postMessage(probe, [probe]);
    return true;
  } catch {
    return false;
  } finally {
    channel.port1.close();
    channel.port2.close();
  }
}

const aborted = () => {
  const error = new Error('Download cancelled');
  error.name = 'AbortError';
  return error;
};

/** A fetchDecrypt's failure carries its phase; decrypt()'s only a code and message. */
const downloadError = (info: RpcErrorInfo): Error =>
  'phase' in info
    ? new FetchDecryptError(info as FilesDownloadErrorInfo)
    : new CryptoOperationError(info.code, info.message);

/**
 * Talks to files-download.worker.ts: the stored bytes' stream is transferred to the worker and
 * the verified plaintext's stream transferred back (decrypt), or the worker fetches and sends
 * the plaintext in transferred buffers (fetchDecrypt). One worker serves every download (each is
 * its own call); it starts on first use.
 */
export class WorkerFilesDownloadCrypto extends RpcFilesDownloadCrypto {
  private readonly worker: WorkerClient<FilesDownloadApi>;
  private nextJob = 1;

  constructor(
    createWorker: () => Worker = () =>
      new Worker(new URL('./files-download.worker.ts', import.meta.url), {
        type: 'module',
        name: 'vault-files-download',
      }),
  ) {
    const worker = new WorkerClient<FilesDownloadApi>({
      start: createWorker,
      failure: () =>
        new CryptoOperationError(
          FILE_DECRYPT_CODES.workerFailed,
          'The decryption worker could not start. Please reload the page.',
        ),
      toError: downloadError,
    });
    super(worker);
    this.worker = worker;
  }

  warm(): void {
    this.worker.warm();
  }

  async fetchDecrypt(
    vaultKey: CryptoKey,
    file: FileDecryptParams,
    url: string,
    handlers: FetchDecryptHandlers,
    signal: AbortSignal,
  ): Promise<void> {
    if (signal.aborted) throw aborted();
    const job = this.nextJob++;
    // Stops the worker's fetch: the caller aborted, or writing a piece failed (the first wins).
    const stop = new AbortController();
    let stopped: Error | null = null;
    const stopWith = (reason: Error) => {
      stopped ??= reason;
      stop.abort();
    };
    const onAbort = () => stopWith(aborted());
    signal.addEventListener('abort', onAbort, { once: true });
    // Pieces are written one after another; the verdict waits for the last write.
    let writes: Promise<void> = Promise.resolve();
    const onPiece = (data: ArrayBuffer) => {
      // The write starts at once (a sink queues writes in order, so the next piece need not
      // wait for this one to reach the disk); the ack waits until it is written.
      const acked = handlers.onPiece(new Uint8Array(data)).then(
        (reuse) => this.worker.notify('ack', job, reuse ? transfer(data, [data]) : undefined),
        (error: unknown) => {
          stopWith(new FetchDecryptSinkError(error));
          throw error;
        },
      );
      writes = writes.then(() => acked);
      writes.catch(() => undefined);
    };
    try {
      try {
        await this.worker.call(
          'fetchDecrypt',
          job,
          vaultKey,
          { ...file },
          url,
          (bytes, done) => handlers.onReceived(bytes, done),
          onPiece,
          stop.signal,
        );
      } catch (error) {
        const cause = stopped ?? (error instanceof Error ? error : new Error(String(error)));
        // Let a write in progress end before the caller aborts its sink.
        await writes.catch(() => undefined);
        throw cause;
      }
      await writes.catch(() => undefined);
      if (stopped) throw stopped;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  terminate(): void {
    this.worker.terminate();
  }
}

let shared: FilesDownloadCrypto | null = null;

/**
 * The app's file decryption: in the worker when the browser can transfer streams to it, else on
 * this thread (see InlineFilesDownloadCrypto for why that is still acceptable).
 */
export function defaultFilesDownloadCrypto(): FilesDownloadCrypto {
  if (!shared) {
    shared =
      typeof Worker !== 'undefined' && canTransferStreams()
        ? new WorkerFilesDownloadCrypto()
        : new InlineFilesDownloadCrypto();
  }
  return shared;
}
