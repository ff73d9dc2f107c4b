import type { FileDto, StorageType } from '@vault/contracts';
import { isApiError, messageOf, type ApiClient } from '../../../lib/api-client';
import { ProgressThrottle } from '../../../lib/progress-throttle';
import { SnapshotStore } from '../../../lib/snapshot-store';
import { cryptoErrorCode } from '../../../workers/crypto-service';
import type { FilesCrypto } from '../../../workers/files-crypto';
import type { PreparedUpload } from '../../../workers/files-messages';
import { canHaveThumbnail } from '../../../workers/files-thumbnail';
import { completeUpload, createUpload } from '../../../lib/files-api';
import { FILE_MESSAGES, resolveMimeType, validateFile } from '../utils/file-rules';
import { resolveUploadUrl, type UploadTransport } from './upload-transport';

/**
 * Spec section 4, file upload status: encrypting, uploading, completing (upload-complete, where
 * the server checks the stored size: every storage type here, where the spec had it for S3 only),
 * completed, or error. 'queued' is a file chosen in the dialog and not started yet; a file refused
 * by the checks of spec section 5 is an 'error' from the start.
 */
export type UploadStatus = 'queued' | 'encrypting' | 'uploading' | 'completing' | 'completed' | 'error';

/** What a row shows of its progress. */
interface RowProgress {
  status: UploadStatus;
  progress: number;
}

/** Spec section 3, "File upload item": file, progress, status, fileId, error. */
export interface UploadItem {
  /** This row's id (the file id exists only once encryption has begun). */
  key: string;
  file: File;
  name: string;
  size: number;
  mimeType: string;
  status: UploadStatus;
  /** 0 to 100 within the current step (encrypting: bytes sealed; uploading: bytes sent). */
  progress: number;
  fileId?: string;
  error?: string;
  /** Started by Upload (a refused file never is). */
  started: boolean;
  storageType?: StorageType;
  tags?: string[];
}

export interface UploadSnapshot {
  items: readonly UploadItem[];
  /** Some started file is still queued or in progress. */
  busy: boolean;
  /** Every started file has finished (completed or error), and at least one was started. */
  finished: boolean;
  /** Started files that failed, kept after their rows were cleared (the page lists them). */
  failures: readonly UploadItem[];
}

export interface UploadOptions {
  storageType: StorageType;
  tags: string[];
}

export interface UploadQueueOptions {
  api: ApiClient;
  crypto: FilesCrypto;
  transport: UploadTransport;
  vaultKey: CryptoKey;
  /** The API base URL (runtime config), for relative upload URLs. */
  apiBaseUrl: string;
  pageOrigin?: string;
  /** Spec section 4: called 1 second after each successful upload (the list is refreshed). */
  onUploaded?: (fileId: string, file: FileDto | null) => void;
  /** Delay of onUploaded (spec: 1 s). */
  completionDelayMs?: number;
  /**
   * The account's malware-fingerprint opt-in, asked as each file's upload starts (absent: off).
   * When true, the plaintext's SHA-256 is computed while sealing and sent with upload-complete.
   */
  fingerprintCheck?: () => Promise<boolean>;
  /** Least time between two progress-only updates of a row (default PROGRESS_INTERVAL_MS). */
  progressIntervalMs?: number;
}

/** Spec section 9: 'upload completion callback 1 s'. */
export const UPLOAD_COMPLETION_DELAY_MS = 1000;

const IN_PROGRESS: ReadonlySet<UploadStatus> = new Set(['encrypting', 'uploading', 'completing']);

/** An empty queue (and no queue: the vault locked). */
export const NO_UPLOADS: UploadSnapshot = Object.freeze({
  items: [],
  busy: false,
  finished: false,
  failures: [],
});

let rowCounter = 0;

function isAbort(error: unknown): boolean {
  return (
    (typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError') ||
    (typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'CANCELLED')
  );
}

/**
 * The uploads of one unlocked session. Files are checked when added, then sealed in the files
 * worker and sent one after another (one file's ciphertext staged at a time), each row moving
 * through the statuses with a percent. It lives as long as the vault stays unlocked, so closing
 * the dialog or leaving the page does not stop an upload; locking or signing out does (the
 * request is aborted, the worker's encryption stopped, staged ciphertext dropped).
 */
export class UploadQueue extends SnapshotStore<UploadSnapshot> {
  private items: UploadItem[] = [];
  private failures: UploadItem[] = [];
  private processing = false;
  private disposed = false;
  private controller: AbortController | null = null;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  /** Each row's percent, shown at most every progressIntervalMs (a status change at once). */
  private readonly throttle: ProgressThrottle<RowProgress>;

  readonly vaultKey: CryptoKey;
  private readonly options: UploadQueueOptions;

  constructor(options: UploadQueueOptions) {
    super(NO_UPLOADS);
    this.options = options;
    this.vaultKey = options.vaultKey;
    this.throttle = new ProgressThrottle<RowProgress>(
      (key, { progress }) => {
        if (!this.disposed) this.update(key, { progress });
      },
      (shown, next) => shown.status !== next.status,
      options.progressIntervalMs,
    );
  }

  private publish(): void {
    if (this.disposed) return;
    const started = this.items.filter((i) => i.started);
    const busy = started.some((i) => i.status === 'queued' || IN_PROGRESS.has(i.status));
    this.emit({
      items: [...this.items],
      busy,
      finished: started.length > 0 && !busy,
      failures: this.failures,
    });
  }

  private update(key: string, patch: Partial<UploadItem>): void {
    const index = this.items.findIndex((i) => i.key === key);
    if (index < 0) return;
    const item = { ...this.items[index]!, ...patch };
    this.items[index] = item;
    if (item.status === 'completed' || item.status === 'error') this.throttle.forget(key);
    else this.throttle.mark(key, { status: item.status, progress: item.progress });
    this.publish();
  }

  /**
   * A new percent: shown at once with a new status, or when the row's last update is at least
   * the interval old; else once it is (only the latest percent is kept meanwhile).
   */
  private progress(key: string, progress: number, status?: UploadStatus): void {
    const item = this.items.find((i) => i.key === key);
    if (!item) return;
    if (status !== undefined && status !== item.status) {
      this.update(key, { status, progress });
      return;
    }
    if (item.progress === progress) return;
    this.throttle.push(key, { status: item.status, progress });
  }

  /** Adds chosen files: each is checked (spec section 5) and waits as 'queued', or is an 'error' row. */
  add(files: Iterable<File>): void {
    if (this.disposed) return;
    for (const file of files) {
      const error = validateFile(file);
      const item: UploadItem = {
        key: `upload-${++rowCounter}`,
        file,
        name: file.name,
        size: file.size,
        mimeType: resolveMimeType(file),
        status: error ? 'error' : 'queued',
        progress: 0,
        started: false,
      };
      if (error) item.error = error;
      this.items.push(item);
    }
    // Files were chosen: the sealing worker starts now rather than at the click on Upload.
    if (this.items.some((i) => i.status === 'queued')) this.options.crypto.warmUploads?.();
    this.publish();
  }

  /** Removes a row that is not in progress (a queued file, or a finished one). */
  remove(key: string): void {
    const item = this.items.find((i) => i.key === key);
    if (!item || IN_PROGRESS.has(item.status) || (item.started && item.status === 'queued')) return;
    this.items = this.items.filter((i) => i.key !== key);
    this.publish();
  }

  /** Starts every queued file with the chosen storage and tags (tags are sealed with each file). */
  start(options: UploadOptions): void {
    if (this.disposed) return;
    let any = false;
    this.items = this.items.map((i) => {
      if (i.status !== 'queued' || i.started) return i;
      any = true;
      return { ...i, started: true, storageType: options.storageType, tags: [...options.tags] };
    });
    if (!any) return;
    this.publish();
    void this.process();
  }

  /**
   * Forgets finished rows (and refused ones) once nothing is running; the started rows that
   * failed move to `failures`. Returns them.
   */
  clearFinished(): UploadItem[] {
    if (this.snapshot.busy) return [];
    const failed = this.items.filter((i) => i.started && i.status === 'error');
    const kept = this.items.filter((i) => i.status !== 'completed' && i.status !== 'error');
    if (kept.length === this.items.length) return [];
    this.items = kept;
    if (failed.length > 0) this.failures = [...this.failures, ...failed];
    this.publish();
    return failed;
  }

  /** The page's list of failed uploads was dismissed (or a new round begins). */
  dismissFailures(): void {
    if (this.failures.length === 0) return;
    this.failures = [];
    this.publish();
  }

  private async process(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      for (;;) {
        const next = this.items.find((i) => i.started && i.status === 'queued');
        if (!next || this.disposed) return;
        await this.uploadOne(next);
      }
    } finally {
      this.processing = false;
    }
  }

  private async uploadOne(item: UploadItem): Promise<void> {
    const { api, crypto, transport } = this.options;
    const storageType = item.storageType ?? 'local';
    const controller = new AbortController();
    this.controller = controller;
    let prepared: PreparedUpload | null = null;
    let step: 'encrypt' | 'send' = 'send';
    this.update(item.key, { status: 'encrypting', progress: 0 });
    try {
      // The setting as it is now, when this file starts (not when the dialog opened).
      const fingerprint = (await this.options.fingerprintCheck?.()) ?? false;
      if (this.disposed) return;
      step = 'encrypt';
      const input = {
        file: item.file,
        name: item.name,
        mimeType: item.mimeType,
        tags: item.tags ?? [],
        thumbnail: canHaveThumbnail(item.mimeType, item.size),
        fingerprint,
      };
      const fields = await crypto.sealUploadMeta(this.vaultKey, input);
      if (this.disposed) return;
      step = 'send';
      this.update(item.key, { fileId: fields.fileId });
      const origin = this.options.pageOrigin ?? globalThis.location?.origin ?? 'http://localhost';
      // Every storage type, Cloudinary included, takes the same path: a signed upload URL (S3
      // presigned, or the files service's blob route, which streams on to Cloudinary), then
      // upload-complete, which checks the stored size. No third-party origin is needed in the CSP.
      const signed = await createUpload(api, fields, storageType);
      const url = resolveUploadUrl(signed.uploadUrl, this.options.apiBaseUrl, origin);
      let plaintextSha256: string | undefined;
      step = 'encrypt';
      if (signed.partSize) {
        // The storage takes parts (every storage of this server): the worker sends each one as
        // soon as it is sealed, so encrypting and uploading overlap; to S3 each part has its own
        // URL. 'Uploading' once the first part is stored.
        const partUrls = signed.partUrls?.map((u) => resolveUploadUrl(u, this.options.apiBaseUrl, origin));
        const sent = await crypto.sendUpload(
          this.vaultKey,
          fields,
          input,
          { url, partSize: signed.partSize, ...(partUrls ? { partUrls } : {}) },
          (sealed, total, stored) =>
            stored > 0
              ? this.progress(item.key, percent(stored, total), 'uploading')
              : this.progress(item.key, percent(sealed, total)),
        );
        plaintextSha256 = sent.plaintextSha256;
      } else {
        prepared = await crypto.stageUpload(this.vaultKey, fields, input, (done, total) =>
          this.progress(item.key, percent(done, total)),
        );
        if (this.disposed) return;
        step = 'send';
        this.update(item.key, { status: 'uploading', progress: 0 });
        const onProgress = (sent: number, total: number) => this.progress(item.key, percent(sent, total));
        await transport.put(url, prepared.ciphertext, onProgress, controller.signal);
        plaintextSha256 = prepared.plaintextSha256;
      }
      if (this.disposed) return;
      step = 'send';
      this.update(item.key, { status: 'completing', progress: 100 });
      // Only computed when the account opted in (input.fingerprint).
      const saved = await completeUpload(api, fields.fileId, plaintextSha256);
      if (this.disposed) return;
      this.update(item.key, { status: 'completed', progress: 100 });
      this.later(() => this.options.onUploaded?.(fields.fileId, saved));
    } catch (error) {
      if (this.disposed || isAbort(error)) return;
      this.update(item.key, { status: 'error', error: uploadErrorMessage(error, step) });
    } finally {
      if (this.controller === controller) this.controller = null;
      if (prepared) void crypto.releaseUpload(prepared).catch(() => undefined);
    }
  }

  private later(fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.disposed) fn();
    }, this.options.completionDelayMs ?? UPLOAD_COMPLETION_DELAY_MS);
    this.timers.add(timer);
  }

  /** Sign-out or lock: the running upload is aborted, encryption stopped, everything forgotten. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.controller?.abort();
    this.options.crypto.cancelUploads();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.throttle.dispose();
    this.items = [];
    this.failures = [];
    this.reset(NO_UPLOADS);
  }

  get isDisposed(): boolean {
    return this.disposed;
  }
}

function percent(done: number, total: number): number {
  if (total <= 0) return 100;
  return Math.max(0, Math.min(100, Math.floor((done / total) * 100)));
}

/** The row's error: the storage's status, the API's message, or the encryption failure. */
export function uploadErrorMessage(error: unknown, step: 'encrypt' | 'send'): string {
  // The storage's answer: an UploadHttpError of the page's PUT, or of a part the worker sent
  // (files-parts.ts), which crosses over as its code and message.
  if (cryptoErrorCode(error) === 'UPLOAD_HTTP' && error instanceof Error) return error.message;
  if (step === 'encrypt') {
    const reason = error instanceof Error && error.message ? error.message : '';
    return reason ? `${FILE_MESSAGES.encryptFailed}: ${reason}` : FILE_MESSAGES.encryptFailed;
  }
  if (isApiError(error)) {
    return error.status === 0 ? FILE_MESSAGES.uploadFailed : messageOf(error, FILE_MESSAGES.uploadFailed);
  }
  return FILE_MESSAGES.uploadFailed;
}
