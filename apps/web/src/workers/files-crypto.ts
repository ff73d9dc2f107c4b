import { CryptoOperationError } from './crypto-service';
import type {
  FileMetaOutcome,
  PreparedUpload,
  SealedFileMeta,
  SealedUploadFields,
  SentUpload,
  UploadInput,
} from './files-messages';
import type { FilesApi, UploadEnvironment } from './files-ops';
import type { PartsTarget } from './files-parts';
import {
  WorkerClient,
  localClient,
  type RpcArgs,
  type RpcClient,
  type RpcMethod,
  type RpcResult,
} from './worker-rpc';

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
    target: PartsTarget,
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

export const UPLOAD_CANCELLED = 'CANCELLED';

/** Only what the worker needs of a file record crosses the boundary. */
const sealedOnly = (f: SealedFileMeta): SealedFileMeta => ({
  id: f.id,
  wrappedKey: f.wrappedKey,
  encryptedName: f.encryptedName,
  encryptedMimeType: f.encryptedMimeType,
  encryptedTags: f.encryptedTags,
});

/**
 * The operations as calls to the files API, on the list's lane (names, types, tags, thumbnails)
 * or the uploads' one.
 */
abstract class RpcFilesCrypto implements FilesCrypto {
  constructor(
    private readonly list: RpcClient<FilesApi>,
    protected readonly upload: RpcClient<FilesApi>,
  ) {}

  abstract releaseUpload(prepared: PreparedUpload): Promise<void>;

  abstract cancelUploads(): void;

  readonly decryptMetadata: FilesCrypto['decryptMetadata'] = (key, files) =>
    this.list.call('decryptMetadata', key, files.map(sealedOnly));

  readonly decryptThumbnail: FilesCrypto['decryptThumbnail'] = (key, file, encryptedThumbnail) =>
    this.list.call('decryptThumbnail', key, { id: file.id, wrappedKey: file.wrappedKey }, encryptedThumbnail);

  readonly sealUploadMeta: FilesCrypto['sealUploadMeta'] = (key, input) =>
    this.upload.call('sealUploadMeta', key, input);

  readonly stageUpload: FilesCrypto['stageUpload'] = (key, fields, input, onProgress) =>
    this.upload.call('stageUpload', key, fields, input, onProgress);

  readonly sendUpload: FilesCrypto['sendUpload'] = (key, fields, input, target, onProgress) =>
    this.upload.call('sendUpload', key, fields, input, target, onProgress);
}

const cancelled = () => new CryptoOperationError(UPLOAD_CANCELLED, 'Upload cancelled');

function filesWorker(name: string): WorkerClient<FilesApi> {
  return new WorkerClient<FilesApi>({
    start: () => new Worker(new URL('./files.worker.ts', import.meta.url), { type: 'module', name }),
  });
}

/**
 * Talks to two files.worker.ts instances: one decrypts the list (names, types, tags,
 * thumbnails), the other seals uploads, so encrypting a large file never delays the list.
 * Both start on first use.
 */
export class WorkerFilesCrypto extends RpcFilesCrypto {
  private readonly workers: { list: WorkerClient<FilesApi>; upload: WorkerClient<FilesApi> };

  constructor() {
    const workers = { list: filesWorker('vault-files'), upload: filesWorker('vault-files-upload') };
    super(workers.list, workers.upload);
    this.workers = workers;
  }

  async releaseUpload(prepared: PreparedUpload): Promise<void> {
    if (prepared.staging.kind === 'memory') return;
    await this.upload.call('releaseUpload', prepared.staging);
  }

  cancelUploads(): void {
    // Terminating the worker stops the encryption at once; its staging file is swept later.
    this.workers.upload.terminate(cancelled());
  }

  warmUploads(): void {
    this.workers.upload.warm();
  }

  terminate(): void {
    this.workers.list.terminate();
    this.workers.upload.terminate();
  }
}

/**
 * The same operations on the calling thread (localClient: failures look exactly alike). Loaded
 * lazily: the main bundle does not carry the crypto code. Used where no Worker exists (jsdom
 * tests) and by tests that want the real crypto in-thread.
 */
export class InlineFilesCrypto extends RpcFilesCrypto {
  private generation = 0;

  /** `env`: where uploads stage and send, over the browser's defaults (tests give a fake storage). */
  constructor(env: Partial<UploadEnvironment> = {}) {
    const local = localClient(async () => {
      const { createFilesApi, defaultUploadEnvironment } = await import('./files-ops');
      return createFilesApi({ ...defaultUploadEnvironment, ...env });
    });
    super(local, { call: (method, ...args) => this.uploadCall(local, method, args) });
  }

  /**
   * An upload call that cancelUploads cannot stop here (the sealing runs on this thread): once
   * cancelled, its progress no longer shows, and its answer becomes CANCELLED (a staged result
   * is released).
   */
  private async uploadCall<M extends RpcMethod<FilesApi>>(
    local: RpcClient<FilesApi>,
    method: M,
    args: RpcArgs<FilesApi, M>,
  ): Promise<RpcResult<FilesApi, M>> {
    if (method !== 'stageUpload' && method !== 'sendUpload') return local.call(method, ...args);
    const generation = this.generation;
    const current = () => generation === this.generation;
    const quietWhenCancelled = args.map((arg: unknown) =>
      typeof arg === 'function'
        ? (...values: unknown[]) => {
            if (current()) (arg as (...v: unknown[]) => void)(...values);
          }
        : arg,
    ) as RpcArgs<FilesApi, M>;
    const outcome = await local.call(method, ...quietWhenCancelled).then(
      (result) => ({ ok: true as const, result }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    if (!current()) {
      if (outcome.ok && method === 'stageUpload') await this.releaseUpload(outcome.result as PreparedUpload);
      throw cancelled();
    }
    if (!outcome.ok) throw outcome.error;
    return outcome.result;
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
