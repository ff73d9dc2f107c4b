import { CryptoOperationError } from './crypto-service';
import type {
  FileMetaOutcome,
  FilesWorkerRequest,
  FilesWorkerResponse,
  FilesWorkerResult,
  PreparedUpload,
  SealedFileMeta,
  SealedUploadFields,
  SentUpload,
  UploadInput,
} from './files-messages';
import type { UploadEnvironment } from './files-ops';

/** What the File Vault asks of the crypto: everything runs in files.worker.ts when it can. */
export interface FilesCrypto {
  /** Decrypts the name, type and tags of one batch; each file succeeds or fails on its own. */
  decryptMetadata(key: CryptoKey, files: readonly SealedFileMeta[]): Promise<FileMetaOutcome[]>;
  /** The thumbnail's picture bytes. */
  decryptThumbnail(
    key: CryptoKey,
    file: { id: string; wrappedKey: string },
    encryptedThumbnail: string,
  ): Promise<Uint8Array>;
  /** An upload's first step: a new file id and key, and the sealed name, type, tags and thumbnail. */
  sealUploadMeta(key: CryptoKey, input: UploadInput): Promise<SealedUploadFields>;
  /** Seals the content into a staged Blob for a whole-object PUT; `onProgress` counts ciphertext bytes. */
  stageUpload(
    key: CryptoKey,
    fields: SealedUploadFields,
    input: UploadInput,
    onProgress?: (done: number, total: number) => void,
  ): Promise<PreparedUpload>;
  /**
   * Seals the content and sends it in parts to `target.url` as it goes; `onProgress(sealed,
   * total, sent)`. A part the storage refused rejects with code UPLOAD_HTTP.
   */
  sendUpload(
    key: CryptoKey,
    fields: SealedUploadFields,
    input: UploadInput,
    target: { url: string; partSize: number },
    onProgress?: UploadPartsProgress,
  ): Promise<SentUpload>;
  /** Drops the staged ciphertext of a prepared upload (sent, failed or given up). */
  releaseUpload(prepared: PreparedUpload): Promise<void>;
  /** Stops every upload being sealed (sign-out, lock): their calls reject with CANCELLED. */
  cancelUploads(): void;
  /** Starts the upload worker ahead of use (files were chosen); failures wait for the real call. */
  warmUploads?(): void;
}

export type UploadPartsProgress = (sealed: number, total: number, sent: number) => void;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Request = DistributiveOmit<FilesWorkerRequest, 'id'>;
type Progress = (done: number, total: number, sent: number) => void;

interface Pending {
  resolve: (r: FilesWorkerResult) => void;
  reject: (e: Error) => void;
  onProgress?: Progress;
}

export const UPLOAD_CANCELLED = 'CANCELLED';

/** Only what the worker needs of a file record crosses the boundary. */
const sealedOnly = (f: SealedFileMeta): SealedFileMeta => ({
  id: f.id,
  wrappedKey: f.wrappedKey,
  encryptedName: f.encryptedName,
  encryptedMimeType: f.encryptedMimeType,
  encryptedTags: f.encryptedTags,
});

/** One files.worker.ts: starts on first use and answers its requests in order. */
class FilesWorkerHandle {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly name: string) {}

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./files.worker.ts', import.meta.url), {
      type: 'module',
      name: this.name,
    });
    worker.addEventListener('message', (event: MessageEvent<FilesWorkerResponse>) => {
      const msg = event.data;
      const p = this.pending.get(msg.id);
      if (!p) return;
      if (msg.kind === 'progress') {
        p.onProgress?.(msg.done, msg.total, msg.sent ?? 0);
        return;
      }
      this.pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.result);
      else p.reject(new CryptoOperationError(msg.error.code, msg.error.message));
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      this.fail(
        new CryptoOperationError(
          'UNSUPPORTED_ENVIRONMENT',
          'The encryption worker could not start. Please reload the page.',
        ),
      );
    });
    this.worker = worker;
    return worker;
  }

  /** Rejects everything pending and stops the worker (a new one starts on the next call). */
  fail(error: Error): void {
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
    this.worker?.terminate();
    this.worker = null;
  }

  call(req: Request, onProgress?: Progress): Promise<FilesWorkerResult> {
    const id = this.nextId++;
    return new Promise<FilesWorkerResult>((resolve, reject) => {
      let worker: Worker;
      try {
        worker = this.ensureWorker();
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      this.pending.set(id, onProgress ? { resolve, reject, onProgress } : { resolve, reject });
      worker.postMessage({ ...req, id } as FilesWorkerRequest);
    });
  }

  terminate(): void {
    this.worker?.terminate();
    this.worker = null;
  }

  warm(): void {
    try {
      this.ensureWorker();
    } catch {
      // The next call reports it.
    }
  }
}

type Lane = 'list' | 'upload';

/**
 * The operations as requests: the subclasses only say where a request runs (`call`), on the list's
 * lane (names, types, tags, thumbnails) or the uploads' one.
 */
abstract class RequestFilesCrypto implements FilesCrypto {
  protected abstract call(req: Request, lane: Lane, onProgress?: Progress): Promise<FilesWorkerResult>;

  abstract releaseUpload(prepared: PreparedUpload): Promise<void>;

  abstract cancelUploads(): void;

  async decryptMetadata(key: CryptoKey, files: readonly SealedFileMeta[]): Promise<FileMetaOutcome[]> {
    return (await this.call(
      { op: 'decryptMetadata', key, files: files.map(sealedOnly) },
      'list',
    )) as FileMetaOutcome[];
  }

  async decryptThumbnail(
    key: CryptoKey,
    file: { id: string; wrappedKey: string },
    encryptedThumbnail: string,
  ): Promise<Uint8Array> {
    return (await this.call(
      {
        op: 'decryptThumbnail',
        key,
        file: { id: file.id, wrappedKey: file.wrappedKey },
        encryptedThumbnail,
      },
      'list',
    )) as Uint8Array;
  }

  async sealUploadMeta(key: CryptoKey, input: UploadInput): Promise<SealedUploadFields> {
    return (await this.call({ op: 'sealUploadMeta', key, input }, 'upload')) as SealedUploadFields;
  }

  async stageUpload(
    key: CryptoKey,
    fields: SealedUploadFields,
    input: UploadInput,
    onProgress?: (done: number, total: number) => void,
  ): Promise<PreparedUpload> {
    return (await this.call(
      { op: 'stageUpload', key, fields, input },
      'upload',
      onProgress,
    )) as PreparedUpload;
  }

  async sendUpload(
    key: CryptoKey,
    fields: SealedUploadFields,
    input: UploadInput,
    target: { url: string; partSize: number },
    onProgress?: UploadPartsProgress,
  ): Promise<SentUpload> {
    return (await this.call(
      { op: 'sendUpload', key, fields, input, target },
      'upload',
      onProgress,
    )) as SentUpload;
  }
}

/**
 * Talks to two files.worker.ts instances: one decrypts the list (names, types, tags,
 * thumbnails), the other seals uploads, so encrypting a large file never delays the list.
 * Both start on first use.
 */
export class WorkerFilesCrypto extends RequestFilesCrypto {
  private readonly list = new FilesWorkerHandle('vault-files');
  private readonly upload = new FilesWorkerHandle('vault-files-upload');

  protected call(req: Request, lane: Lane, onProgress?: Progress): Promise<FilesWorkerResult> {
    return (lane === 'list' ? this.list : this.upload).call(req, onProgress);
  }

  async releaseUpload(prepared: PreparedUpload): Promise<void> {
    if (prepared.staging.kind === 'memory') return;
    await this.upload.call({ op: 'releaseUpload', staging: prepared.staging });
  }

  cancelUploads(): void {
    // Terminating the worker stops the encryption at once; its staging file is swept later.
    this.upload.fail(new CryptoOperationError(UPLOAD_CANCELLED, 'Upload cancelled'));
  }

  warmUploads(): void {
    this.upload.warm();
  }

  terminate(): void {
    this.list.terminate();
    this.upload.terminate();
  }
}

/**
 * The same operations on the calling thread, through the worker's own dispatcher (so failures
 * look exactly alike). Loaded lazily: the main bundle does not carry the crypto code. Used where
 * no Worker exists (jsdom tests) and by tests that want the real crypto in-thread.
 */
export class InlineFilesCrypto extends RequestFilesCrypto {
  private generation = 0;

  /** `env`: where uploads stage and send, over the browser's defaults (tests give a fake storage). */
  constructor(private readonly env: Partial<UploadEnvironment> = {}) {
    super();
  }

  protected async call(req: Request, _lane: Lane, onProgress?: Progress): Promise<FilesWorkerResult> {
    const generation = this.generation;
    const [{ handleFilesRequest }, { defaultUploadEnvironment }] = await Promise.all([
      import('./files-dispatch'),
      import('./files-ops'),
    ]);
    const answer = await handleFilesRequest(
      { ...req, id: 0 } as FilesWorkerRequest,
      (msg) => {
        if (msg.kind === 'progress' && generation === this.generation)
          onProgress?.(msg.done, msg.total, msg.sent ?? 0);
      },
      { ...defaultUploadEnvironment, ...this.env },
    );
    const uploading = req.op === 'stageUpload' || req.op === 'sendUpload';
    if (uploading && generation !== this.generation) {
      if (req.op === 'stageUpload' && answer.kind === 'answer' && answer.ok && answer.result) {
        await this.releaseUpload(answer.result as PreparedUpload);
      }
      throw new CryptoOperationError(UPLOAD_CANCELLED, 'Upload cancelled');
    }
    if (answer.kind !== 'answer') throw new Error('Unexpected answer from the files crypto');
    if (!answer.ok) throw new CryptoOperationError(answer.error.code, answer.error.message);
    return answer.result;
  }

  async releaseUpload(prepared: PreparedUpload): Promise<void> {
    if (prepared.staging.kind === 'memory') return;
    const { releaseStaging } = await import('./files-staging');
    await releaseStaging(prepared.staging);
  }

  cancelUploads(): void {
    this.generation++;
  }
}

let shared: FilesCrypto | null = null;

/** The app's files crypto: the workers in browsers, in-thread where Workers do not exist. */
export function defaultFilesCrypto(): FilesCrypto {
  if (!shared) shared = typeof Worker === 'undefined' ? new InlineFilesCrypto() : new WorkerFilesCrypto();
  return shared;
}
