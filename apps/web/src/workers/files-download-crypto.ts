import { CryptoOperationError } from './crypto-service';
import type {
  FileDecryptParams,
  FilesDownloadErrorInfo,
  FilesDownloadMessage,
  FilesDownloadRequest,
  FilesDownloadResponse,
} from './files-download-messages';

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

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A caller that stops at the first failure may never look at the other promise.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** One request's answers, turned into the two promises callers see. */
class DecryptJob {
  readonly stream = deferred<ReadableStream<Uint8Array>>();
  readonly verified = deferred<void>();

  /** True when the request is finished (no more messages expected). */
  handle(message: FilesDownloadResponse): boolean {
    switch (message.type) {
      case 'stream':
        this.stream.resolve(message.plaintext);
        return false;
      case 'done':
        this.verified.resolve();
        return true;
      case 'error': {
        this.fail(new CryptoOperationError(message.error.code, message.error.message));
        return true;
      }
      default:
        return false;
    }
  }

  fail(error: Error): void {
    this.stream.reject(error);
    this.verified.reject(error);
  }

  result(): Promise<DecryptedFileStream> {
    return this.stream.promise.then((plaintext) => ({ plaintext, verified: this.verified.promise }));
  }
}

type RequestBody = Omit<FilesDownloadRequest, 'id'>;

/**
 * The same operations on the calling thread, through the worker's own dispatcher (so answers and
 * failures look exactly alike). WebCrypto still does the AES-GCM work off the main thread in
 * every browser; what stays here is moving 64 KiB buffers. Used where a stream cannot be handed
 * to a Worker (browsers without transferable streams), where no Worker exists (jsdom tests), and
 * by tests that want the real crypto in-thread. Loaded lazily.
 */
export class InlineFilesDownloadCrypto implements FilesDownloadCrypto {
  async decrypt(
    vaultKey: CryptoKey,
    file: FileDecryptParams,
    encrypted: ReadableStream<Uint8Array>,
  ): Promise<DecryptedFileStream> {
    const { handleFilesDownloadRequest } = await import('./files-download-dispatch');
    const job = new DecryptJob();
    const req: FilesDownloadRequest = { id: 0, op: 'decrypt', vaultKey, file: { ...file }, encrypted };
    void handleFilesDownloadRequest(req, (message) => {
      job.handle(message);
    });
    return job.result();
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

/**
 * Talks to files-download.worker.ts: the stored bytes' stream is transferred to the worker and
 * the verified plaintext's stream transferred back. One worker serves every download (each is
 * its own request); it starts on first use.
 */
export class WorkerFilesDownloadCrypto implements FilesDownloadCrypto {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly jobs = new Map<number, DecryptJob>();
  private readonly fetches = new Map<number, (message: FilesDownloadResponse | Error) => void>();

  constructor(
    private readonly createWorker: () => Worker = () =>
      new Worker(new URL('./files-download.worker.ts', import.meta.url), {
        type: 'module',
        name: 'vault-files-download',
      }),
  ) {}

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = this.createWorker();
    worker.addEventListener('message', (event: MessageEvent<FilesDownloadResponse>) => {
      const message = event.data;
      this.fetches.get(message.id)?.(message);
      const job = this.jobs.get(message.id);
      if (job && job.handle(message)) this.jobs.delete(message.id);
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      const error = new CryptoOperationError(
        FILE_DECRYPT_CODES.workerFailed,
        'The decryption worker could not start. Please reload the page.',
      );
      for (const job of this.jobs.values()) job.fail(error);
      this.jobs.clear();
      for (const fetch of [...this.fetches.values()]) fetch(error);
      this.fetches.clear();
      this.worker?.terminate();
      this.worker = null;
    });
    this.worker = worker;
    return worker;
  }

  async decrypt(
    vaultKey: CryptoKey,
    file: FileDecryptParams,
    encrypted: ReadableStream<Uint8Array>,
  ): Promise<DecryptedFileStream> {
    const id = this.nextId++;
    const job = new DecryptJob();
    const body: RequestBody = { op: 'decrypt', vaultKey, file: { ...file }, encrypted };
    const worker = this.ensureWorker();
    this.jobs.set(id, job);
    try {
      worker.postMessage({ ...body, id } satisfies FilesDownloadRequest, [encrypted]);
    } catch (error) {
      this.jobs.delete(id);
      throw error instanceof Error ? error : new Error(String(error));
    }
    return job.result();
  }

  warm(): void {
    try {
      this.ensureWorker();
    } catch {
      // The transfer itself reports it.
    }
  }

  fetchDecrypt(
    vaultKey: CryptoKey,
    file: FileDecryptParams,
    url: string,
    handlers: FetchDecryptHandlers,
    signal: AbortSignal,
  ): Promise<void> {
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      const aborted = () => {
        const error = new Error('Download cancelled');
        error.name = 'AbortError';
        return error;
      };
      if (signal.aborted) {
        reject(aborted());
        return;
      }
      const worker = this.ensureWorker();
      const send = (message: FilesDownloadMessage, transfer: Transferable[] = []) => {
        try {
          this.worker?.postMessage(message, transfer);
        } catch {
          // The worker is gone: its error handler settles this request.
        }
      };
      // Pieces are written one after another; the verdict waits for the last write.
      let writes: Promise<void> = Promise.resolve();
      let settled = false;
      const finish = (error: Error | null) => {
        if (settled) return;
        settled = true;
        this.fetches.delete(id);
        signal.removeEventListener('abort', onAbort);
        if (error) {
          // Let a write in progress end before the caller aborts its sink.
          void writes.then(
            () => reject(error),
            () => reject(error),
          );
        } else resolve();
      };
      const onAbort = () => {
        send({ id, op: 'cancel' });
        finish(aborted());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.fetches.set(id, (message) => {
        if (message instanceof Error) {
          finish(message);
          return;
        }
        switch (message.type) {
          case 'received':
            handlers.onReceived(message.bytes, message.done);
            return;
          case 'piece': {
            if (settled) return;
            const data = message.data;
            // The write starts at once (a sink queues writes in order, so the next piece need not
            // wait for this one to reach the disk); the ack waits until it is written.
            const written = handlers.onPiece(new Uint8Array(data));
            const acked = written.then(
              (reuse) => {
                if (reuse) send({ id, op: 'ack', buffer: data }, [data]);
                else send({ id, op: 'ack' });
              },
              (error: unknown) => {
                send({ id, op: 'cancel' });
                finish(new FetchDecryptSinkError(error));
                throw error;
              },
            );
            writes = writes.then(() => acked);
            writes.catch(() => undefined);
            return;
          }
          case 'done':
            void writes.then(
              () => finish(null),
              () => undefined,
            );
            return;
          case 'error':
            finish(new FetchDecryptError(message.error));
            return;
          default:
            return;
        }
      });
      try {
        worker.postMessage({ id, op: 'fetchDecrypt', vaultKey, file: { ...file }, url });
      } catch (error) {
        finish(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  terminate(): void {
    this.worker?.terminate();
    this.worker = null;
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
