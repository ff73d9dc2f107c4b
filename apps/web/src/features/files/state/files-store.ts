import type { FileDto } from '@vault/contracts';
import { messageOf } from '../../../lib/api-client';
import { outcomesOrFailed } from '../../../lib/decrypt-outcomes';
import { SnapshotStore } from '../../../lib/snapshot-store';
import type { FileMetaOutcome } from '../../../workers/files-messages';
import type { FilesCrypto } from '../../../workers/files-crypto';
import { thumbnailMimeType } from '../../../workers/files-thumbnail';
import type { FileView } from '../types';
import { FILE_MESSAGES, MAX_DECRYPTED_NAME_LENGTH } from '../utils/file-rules';

export type FilesStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface FilesSnapshot {
  /** 'loading' until the list has arrived; 'error' when it could not be loaded at all. */
  status: FilesStatus;
  /** 'Failed to load files' (with the reason) after a failed load or refresh. */
  error: string | null;
  /** Every active file, newest upload first; each 'decrypting', 'ready' or 'failed'. */
  items: readonly FileView[];
  decryptingCount: number;
  searchQuery: string;
  /** The tag filter; null is 'All tags'. */
  selectedTag: string | null;
  /** Object URLs of decrypted thumbnails, by file id. */
  thumbnails: ReadonlyMap<string, string>;
}

export interface FilesStoreOptions {
  vaultKey: CryptoKey;
  crypto: FilesCrypto;
  fetchFiles: () => Promise<FileDto[]>;
  /** The sealed thumbnail of a file, or null when it has none. */
  fetchThumbnail: (id: string) => Promise<string | null>;
  /** Files decrypted per worker request (the first screen's worth first). */
  batchSize?: number;
  /** Thumbnails fetched and decrypted at once. */
  thumbnailConcurrency?: number;
  createObjectURL?: (blob: Blob) => string;
  revokeObjectURL?: (url: string) => void;
}

const EMPTY_SNAPSHOT: FilesSnapshot = Object.freeze({
  status: 'idle',
  error: null,
  items: [],
  decryptingCount: 0,
  searchQuery: '',
  selectedTag: null,
  thumbnails: new Map(),
}) as FilesSnapshot;

export function emptyFilesSnapshot(): FilesSnapshot {
  return EMPTY_SNAPSHOT;
}

/** A sealed record, not decrypted yet. */
export function pendingView(dto: FileDto): FileView {
  return { dto, status: 'decrypting', name: '', mimeType: '', tags: [] };
}

/** Spec section 8: a name that cannot be decrypted shows as 'Encrypted File' of type application/octet-stream. */
export function failedView(dto: FileDto): FileView {
  return {
    dto,
    status: 'failed',
    name: FILE_MESSAGES.encryptedFile,
    mimeType: 'application/octet-stream',
    tags: [],
  };
}

/** A view from a worker outcome; a decrypted name of 1000 characters or more is refused (spec section 5). */
export function viewFromOutcome(dto: FileDto, outcome: FileMetaOutcome | undefined): FileView {
  if (!outcome || outcome.id !== dto.id || !outcome.ok) return failedView(dto);
  if (outcome.meta.name.length >= MAX_DECRYPTED_NAME_LENGTH) return failedView(dto);
  return {
    dto,
    status: 'ready',
    name: outcome.meta.name,
    mimeType: outcome.meta.mimeType || 'application/octet-stream',
    tags: [...outcome.meta.tags],
  };
}

/** The same sealed metadata (a refreshed record whose scan result changed keeps its decrypted view). */
function sameSealed(a: FileDto, b: FileDto): boolean {
  return (
    a.wrappedKey === b.wrappedKey &&
    a.encryptedName === b.encryptedName &&
    a.encryptedMimeType === b.encryptedMimeType &&
    a.encryptedTags === b.encryptedTags
  );
}

/** Newest upload first; ties by id, descending. */
export function compareFiles(a: FileDto, b: FileDto): number {
  const d = Date.parse(b.uploadedAt) - Date.parse(a.uploadedAt);
  if (d !== 0 && !Number.isNaN(d)) return d;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * The File Vault's files for one unlocked session, like the notes store: loads the sealed list,
 * decrypts names, types and tags in the files worker in batches (the first screen's worth first)
 * and publishes after each batch. A file that cannot be decrypted becomes 'failed' ('Encrypted
 * File'); the others are unaffected. Thumbnails are fetched and decrypted on request (a card
 * that shows one asks for it), kept as object URLs and revoked when the file leaves or the store
 * is disposed (sign-out, lock): no plaintext outlives the session.
 */
export class FilesStore extends SnapshotStore<FilesSnapshot> {
  private views = new Map<string, FileView>();
  private order: string[] = [];
  private status: FilesStatus = 'idle';
  private error: string | null = null;
  private searchQuery = '';
  private selectedTag: string | null = null;
  private readonly thumbnails = new Map<string, string>();
  /** Ids whose thumbnail was asked for (loaded, loading, queued or given up). */
  private readonly thumbnailState = new Map<string, 'queued' | 'loading' | 'done'>();
  private thumbnailQueue: string[] = [];
  private thumbnailsRunning = 0;
  private generation = 0;
  private running: Promise<void> | null = null;
  private loaded = false;
  private disposed = false;

  readonly vaultKey: CryptoKey;
  private readonly crypto: FilesCrypto;
  private readonly fetchFiles: FilesStoreOptions['fetchFiles'];
  private readonly fetchThumbnail: FilesStoreOptions['fetchThumbnail'];
  private readonly batchSize: number;
  private readonly thumbnailConcurrency: number;
  private readonly createObjectURL: ((blob: Blob) => string) | null;
  private readonly revokeObjectURL: (url: string) => void;

  constructor(options: FilesStoreOptions) {
    super(EMPTY_SNAPSHOT);
    this.vaultKey = options.vaultKey;
    this.crypto = options.crypto;
    this.fetchFiles = options.fetchFiles;
    this.fetchThumbnail = options.fetchThumbnail;
    this.batchSize = options.batchSize ?? 60;
    this.thumbnailConcurrency = options.thumbnailConcurrency ?? 3;
    const url = globalThis.URL as Partial<typeof URL> | undefined;
    this.createObjectURL =
      options.createObjectURL ??
      (typeof url?.createObjectURL === 'function' ? (blob) => URL.createObjectURL(blob) : null);
    this.revokeObjectURL =
      options.revokeObjectURL ??
      (typeof url?.revokeObjectURL === 'function' ? (u) => URL.revokeObjectURL(u) : () => undefined);
  }

  private publish(filtersOnly = false): void {
    if (this.disposed) return;
    if (filtersOnly) {
      this.emit({ ...this.snapshot, searchQuery: this.searchQuery, selectedTag: this.selectedTag });
    } else {
      const items: FileView[] = [];
      let decryptingCount = 0;
      for (const id of this.order) {
        const view = this.views.get(id);
        if (!view) continue;
        items.push(view);
        if (view.status === 'decrypting') decryptingCount++;
      }
      this.emit({
        status: this.status,
        error: this.error,
        items,
        decryptingCount,
        searchQuery: this.searchQuery,
        selectedTag: this.selectedTag,
        thumbnails: new Map(this.thumbnails),
      });
    }
  }

  /** Loads the list once (later calls share the first); after an error, tries again. */
  load(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (this.running) return this.running;
    if (this.loaded) return Promise.resolve();
    return this.fetchAndDecrypt();
  }

  /** The Retry of the error banner. */
  retry(): Promise<void> {
    return this.load();
  }

  /**
   * Fetches the list again (after an upload, or to pick up scan results): new files are
   * decrypted, known ones keep their decrypted view (with the fresh record), gone ones leave.
   */
  refresh(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (!this.running) return this.fetchAndDecrypt();
    // One refresh waits behind the running load; more calls meanwhile share it.
    this.queuedRefresh ??= this.running.then(() => {
      this.queuedRefresh = null;
      return this.disposed ? undefined : this.fetchAndDecrypt();
    });
    return this.queuedRefresh;
  }

  private queuedRefresh: Promise<void> | null = null;

  private fetchAndDecrypt(): Promise<void> {
    const generation = ++this.generation;
    const run = this.run(generation).finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }

  private async run(generation: number): Promise<void> {
    const live = () => !this.disposed && generation === this.generation;
    if (!this.loaded) this.status = 'loading';
    this.error = null;
    this.publish();
    let list: FileDto[];
    try {
      list = await this.fetchFiles();
    } catch (error) {
      if (!live()) return;
      const reason = messageOf(error, '');
      this.error = reason ? `${FILE_MESSAGES.loadFailed}: ${reason}` : FILE_MESSAGES.loadFailed;
      if (!this.loaded) this.status = 'error';
      this.publish();
      return;
    }
    if (!live()) return;
    const next = new Map<string, FileView>();
    const fresh: FileDto[] = [];
    for (const dto of [...list].sort(compareFiles)) {
      const known = this.views.get(dto.id);
      if (known && known.status !== 'decrypting' && sameSealed(known.dto, dto)) {
        next.set(dto.id, { ...known, dto });
      } else {
        next.set(dto.id, pendingView(dto));
        fresh.push(dto);
      }
    }
    for (const id of this.views.keys()) if (!next.has(id)) this.dropThumbnail(id);
    this.views = next;
    this.order = [...next.keys()];
    this.loaded = true;
    this.status = 'ready';
    this.publish();
    for (let i = 0; i < fresh.length; i += this.batchSize) {
      await this.decryptInto(fresh.slice(i, i + this.batchSize));
      if (!live()) return;
      this.publish();
    }
  }

  private async decryptInto(batch: readonly FileDto[]): Promise<void> {
    if (batch.length === 0) return;
    const outcomes = await outcomesOrFailed(batch, () => this.crypto.decryptMetadata(this.vaultKey, batch));
    const byId = new Map(outcomes.map((o) => [o.id, o]));
    for (const dto of batch) {
      const current = this.views.get(dto.id);
      // Removed or replaced meanwhile: the newer state wins.
      if (!current || current.dto !== dto || current.status !== 'decrypting') continue;
      this.views.set(dto.id, viewFromOutcome(dto, byId.get(dto.id)));
    }
  }

  /** A file that came back (restored from the trash, or just uploaded): decrypted and placed by date. */
  async insert(dto: FileDto): Promise<void> {
    if (this.disposed) return;
    this.dropThumbnail(dto.id);
    this.views.set(dto.id, pendingView(dto));
    this.order = [...this.views.values()]
      .map((v) => v.dto)
      .sort(compareFiles)
      .map((d) => d.id);
    this.publish();
    await this.decryptInto([dto]);
    this.publish();
  }

  /** Deleted (moved to the trash) or gone. */
  remove(id: string): void {
    if (!this.views.has(id)) return;
    this.views.delete(id);
    this.order = this.order.filter((x) => x !== id);
    this.dropThumbnail(id);
    this.publish();
  }

  get(id: string): FileView | undefined {
    return this.views.get(id);
  }

  setSearchQuery(query: string): void {
    if (query === this.searchQuery) return;
    this.searchQuery = query;
    this.publish(true);
  }

  setTag(tag: string | null): void {
    if (tag === this.selectedTag) return;
    this.selectedTag = tag;
    this.publish(true);
  }

  /** A card wants its thumbnail: fetched and decrypted once (a few at a time), then published. */
  requestThumbnail(id: string): void {
    if (this.disposed || !this.createObjectURL || this.thumbnailState.has(id)) return;
    const view = this.views.get(id);
    if (!view || view.status !== 'ready' || !view.dto.hasThumbnail) return;
    this.thumbnailState.set(id, 'queued');
    this.thumbnailQueue.push(id);
    this.pumpThumbnails();
  }

  private pumpThumbnails(): void {
    while (this.thumbnailsRunning < this.thumbnailConcurrency && this.thumbnailQueue.length > 0) {
      const id = this.thumbnailQueue.shift()!;
      if (this.thumbnailState.get(id) !== 'queued') continue;
      this.thumbnailState.set(id, 'loading');
      this.thumbnailsRunning++;
      void this.loadThumbnail(id).finally(() => {
        this.thumbnailsRunning--;
        this.pumpThumbnails();
      });
    }
  }

  private async loadThumbnail(id: string): Promise<void> {
    try {
      const view = this.views.get(id);
      if (!view) return;
      const sealed = await this.fetchThumbnail(id);
      if (!sealed || this.disposed) return;
      const bytes = await this.crypto.decryptThumbnail(this.vaultKey, view.dto, sealed);
      // Still wanted? (the file may have left, or the store been disposed, meanwhile)
      if (this.disposed || this.thumbnailState.get(id) !== 'loading' || !this.views.has(id)) return;
      const url = this.createObjectURL!(new Blob([bytes as BlobPart], { type: thumbnailMimeType(bytes) }));
      this.thumbnails.set(id, url);
      this.publish();
    } catch {
      // No thumbnail then: the card shows the type's icon.
    } finally {
      if (this.thumbnailState.get(id) === 'loading') this.thumbnailState.set(id, 'done');
    }
  }

  private dropThumbnail(id: string): void {
    const url = this.thumbnails.get(id);
    if (url) this.revokeObjectURL(url);
    this.thumbnails.delete(id);
    this.thumbnailState.delete(id);
  }

  /** Sign-out or a new vault key: every decrypted name, tag and thumbnail is dropped. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.generation++;
    for (const url of this.thumbnails.values()) this.revokeObjectURL(url);
    this.thumbnails.clear();
    this.thumbnailState.clear();
    this.thumbnailQueue = [];
    this.views.clear();
    this.order = [];
    this.reset(EMPTY_SNAPSHOT);
  }

  get isDisposed(): boolean {
    return this.disposed;
  }
}
