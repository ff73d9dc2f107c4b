import { CryptoOperationError } from './crypto-service';
import type {
  FileDecryptParams,
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

/** What file access asks of the crypto: the content of one stored object, decrypted as it streams. */
export interface FilesDownloadCrypto {
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
