import type { NoteDto, NoteListResponse } from '@vault/contracts';
import type { NotePlain } from '../../../workers/notes-messages';
import type { NotesCrypto } from '../../../workers/notes-crypto';
import { messageOf } from '../../../lib/api-client';
import { outcomesOrFailed } from '../../../lib/decrypt-outcomes';
import { SnapshotStore } from '../../../lib/snapshot-store';
import { FIRST_PAGE_SIZE, NEXT_PAGE_SIZE, type NotesPageQuery } from '../api/get-notes';
import type { NoteFields } from '../types';
import { isLockedNoteError } from '../utils/locked-note';
import type { NoteFreshness } from './note-freshness';

/** A note as the vault screen shows it: the decrypted fields plus the server's timestamps. */
export interface DecryptedNote extends NoteFields {
  /** Lower-cased title, content and tags, built once, for the case-insensitive search. */
  searchText: string;
}

export type NoteItem =
  | { kind: 'pending'; id: string; sealed: NoteDto }
  | { kind: 'decrypted'; id: string; sealed: NoteDto; note: DecryptedNote }
  | {
      kind: 'failed';
      id: string;
      sealed: NoteDto;
      error: string;
      /** Refused unopened: older than a version of this note the page already showed (NoteFreshness). */
      rolledBack?: true;
    };

/** The error of a note refused as a rollback. */
export const ROLLED_BACK_ERROR = 'The server sent an older version of this note than one already shown';

export type NotesStatus = 'idle' | 'loading' | 'ready' | 'error';

/** The spec's app state for notes (section 3): notes, decryptedNotes, loading, error, selectedTags, searchQuery. */
export interface NotesSnapshot {
  /** 'loading' until the first batch is decrypted; 'error' when nothing could be loaded. */
  status: NotesStatus;
  /** The first page failed ('error'), or a later page failed (status stays 'ready'). */
  error: string | null;
  /** Every page fetched and every note decrypted (or failed). */
  complete: boolean;
  /** Every loaded note, newest `updatedAt` first (ties: as stored), as the API orders them. */
  items: readonly NoteItem[];
  /** The spec's decryptedNotes, keyed by id. */
  decrypted: ReadonlyMap<string, DecryptedNote>;
  decryptedCount: number;
  /** Notes that could not be decrypted, the locked ones included. */
  failedCount: number;
  /** Of failedCount: sealed under a vault key from before an access reset (isLockedNoteError). */
  lockedCount: number;
  pendingCount: number;
  selectedTags: readonly string[];
  searchQuery: string;
}

export interface NotesStoreOptions {
  vaultKey: CryptoKey;
  crypto: NotesCrypto;
  fetchPage: (query: NotesPageQuery) => Promise<NoteListResponse>;
  firstPageSize?: number;
  nextPageSize?: number;
  /** Notes decrypted per worker request after the first screen. */
  batchSize?: number;
  /**
   * The newest version of each note seen in this page: an older one from the server is refused
   * (a rollback), and every note shown or saved here is recorded. Without it nothing is checked.
   */
  freshness?: NoteFreshness;
}

export function toDecrypted(
  sealed: Pick<NoteDto, 'id' | 'createdAt' | 'updatedAt'>,
  plain: NotePlain,
): DecryptedNote {
  return {
    id: sealed.id,
    title: plain.title,
    content: plain.content,
    tags: [...plain.tags],
    createdAt: sealed.createdAt,
    updatedAt: sealed.updatedAt,
    searchText: [plain.title, plain.content, ...plain.tags].join('\n').toLowerCase(),
  };
}

/**
 * Newest first. Notes of the same updatedAt compare equal: the sorts here are stable, so they keep
 * the order they have, which is the API's (in the order stored, a batch in its order), and a note
 * added here goes after them, as the API would list it (an import keeps its file's order).
 */
export function compareItems(a: { id: string; sealed: NoteDto }, b: { id: string; sealed: NoteDto }): number {
  return Date.parse(b.sealed.updatedAt) - Date.parse(a.sealed.updatedAt);
}

/** While later batches arrive, the screen is updated at most this often (each update is O(notes)). */
const PUBLISH_INTERVAL_MS = 250;

/** A User Timing mark (the benchmark reads them; a no-op where the API is missing). */
function mark(name: string): void {
  if (typeof performance !== 'undefined' && typeof performance.mark === 'function') performance.mark(name);
}

/** The state before the first load (and with no store: the vault locked). */
export const EMPTY_NOTES_SNAPSHOT: NotesSnapshot = Object.freeze({
  status: 'idle',
  error: null,
  complete: false,
  items: [],
  decrypted: new Map(),
  decryptedCount: 0,
  failedCount: 0,
  lockedCount: 0,
  pendingCount: 0,
  selectedTags: [],
  searchQuery: '',
}) as NotesSnapshot;

/**
 * The vault's notes for one unlocked session. Loads page by page (a first page of 50, then
 * pages of 500 following `nextCursor`, each requested as soon as the previous one arrives),
 * sends each page to the notes workers in batches as it arrives (the first screen first, and the
 * later pages only once it is decrypted, so that it is not queued behind them), and
 * publishes as soon as the first 50 are decrypted, then at most every PUBLISH_INTERVAL_MS while
 * the rest continues, and once more when everything is in. Fetching waits for no decryption but
 * the first screen's (the third page is requested once it is shown; pages fetched ahead during
 * the unlock, NotesPrefetch, do not wait at all).
 * User Timing marks 'vault:notes-first-batch' and 'vault:notes-complete' (bench/vault.bench.mjs).
 *
 * A note that cannot be decrypted becomes a 'failed' item; the others are unaffected. So does a
 * note older than a version of it this page already showed (`freshness`: a rollback).
 */
export class NotesStore extends SnapshotStore<NotesSnapshot> {
  private readonly entries = new Map<string, NoteItem>();
  private order: string[] = [];
  private readonly decrypted = new Map<string, DecryptedNote>();
  /** Ids deleted here while pages are still arriving: a late page must not bring them back. */
  private readonly removed = new Set<string>();
  private status: NotesStatus = 'idle';
  private error: string | null = null;
  private complete = false;
  private selectedTags: string[] = [];
  private searchQuery = '';
  private cursor: string | null = null;
  private generation = 0;
  private running: Promise<void> | null = null;
  private disposed = false;
  private disposeHooks: Array<() => void> = [];
  private completeWaiters: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];

  readonly vaultKey: CryptoKey;
  private readonly crypto: NotesCrypto;
  private readonly fetchPage: NotesStoreOptions['fetchPage'];
  private readonly firstPageSize: number;
  private readonly nextPageSize: number;
  private readonly batchSize: number;
  private readonly freshness: NoteFreshness | null;

  constructor(options: NotesStoreOptions) {
    super(EMPTY_NOTES_SNAPSHOT);
    this.vaultKey = options.vaultKey;
    this.crypto = options.crypto;
    this.fetchPage = options.fetchPage;
    this.firstPageSize = options.firstPageSize ?? FIRST_PAGE_SIZE;
    this.nextPageSize = options.nextPageSize ?? NEXT_PAGE_SIZE;
    this.batchSize = options.batchSize ?? 250;
    this.freshness = options.freshness ?? null;
  }

  /** `filtersOnly`: the notes did not change, so the lists are reused (no O(n) rebuild per keystroke). */
  private publish(filtersOnly = false): void {
    if (this.disposed) return;
    if (filtersOnly) {
      this.emit({ ...this.snapshot, selectedTags: this.selectedTags, searchQuery: this.searchQuery });
      return;
    }
    if (this.publishTimer !== null) {
      clearTimeout(this.publishTimer);
      this.publishTimer = null;
    }
    this.lastPublish = Date.now();
    let decryptedCount = 0;
    let failedCount = 0;
    let lockedCount = 0;
    let pendingCount = 0;
    const items: NoteItem[] = [];
    for (const id of this.order) {
      const item = this.entries.get(id);
      if (!item) continue;
      items.push(item);
      if (item.kind === 'decrypted') decryptedCount++;
      else if (item.kind === 'failed') {
        failedCount++;
        if (isLockedNoteError(item.error)) lockedCount++;
      } else pendingCount++;
    }
    this.emit({
      status: this.status,
      error: this.error,
      complete: this.complete,
      items,
      decrypted: new Map(this.decrypted),
      decryptedCount,
      failedCount,
      lockedCount,
      pendingCount,
      selectedTags: this.selectedTags,
      searchQuery: this.searchQuery,
    });
  }

  /** Starts loading (once); after an error, resumes where it stopped. */
  load(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (this.running) return this.running;
    if (this.complete) return Promise.resolve();
    const generation = ++this.generation;
    const run = this.run(generation).finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }

  /** The Retry of the error banner. */
  retry(): Promise<void> {
    return this.load();
  }

  /** Resolves when every note is loaded and decrypted (export, import). Starts or resumes loading. */
  whenComplete(): Promise<void> {
    if (this.complete) return Promise.resolve();
    const wait = new Promise<void>((resolve, reject) => this.completeWaiters.push({ resolve, reject }));
    void this.load();
    return wait;
  }

  private settleWaiters(error?: Error): void {
    const waiters = this.completeWaiters;
    this.completeWaiters = [];
    for (const w of waiters) {
      if (error) w.reject(error);
      else w.resolve();
    }
  }

  private async run(generation: number): Promise<void> {
    const live = () => !this.disposed && generation === this.generation;
    if (this.status !== 'ready') this.status = 'loading';
    this.error = null;
    this.publish();
    const first = this.order.length === 0 && this.cursor === null;
    let limit = first ? this.firstPageSize : this.nextPageSize;
    let page: Promise<NoteListResponse> | null = this.fetchPage({ limit, cursor: this.cursor });
    // Pages are fetched back to back: beyond the first screen, decryption never holds up a request.
    // Every batch is sent to the worker as soon as its page arrives, in order (the first screen first);
    // the answers are applied as they come and shown at most every PUBLISH_INTERVAL_MS.
    const inFlight: Array<Promise<void>> = [];
    let firstBatch: Promise<void> | null = null;
    try {
      let isFirstPage = first;
      while (page) {
        const answer: NoteListResponse = await page;
        if (!live()) return;
        this.cursor = answer.nextCursor;
        limit = this.nextPageSize;
        page = answer.nextCursor ? this.fetchPage({ limit, cursor: answer.nextCursor }) : null;
        page?.catch(() => undefined); // handled when awaited
        const fresh = this.append(answer.notes);
        if (isFirstPage) {
          isFirstPage = false;
          firstBatch = this.decryptInto(fresh.slice(0, this.firstPageSize)).then(() => {
            if (!live()) return;
            this.status = 'ready';
            mark('vault:notes-first-batch');
            this.publish();
          });
          inFlight.push(firstBatch);
          for (let i = this.firstPageSize; i < fresh.length; i += this.batchSize) {
            inFlight.push(this.decryptBatchInBackground(fresh.slice(i, i + this.batchSize), live));
          }
        } else {
          // The first screen is shown before more pages go to the workers: pages fetched ahead
          // (during the KDF) would otherwise all be cloned to the workers first, in one stretch of
          // the main thread, and the first cards wait behind them (bench/vault.bench.mjs).
          if (firstBatch) {
            await firstBatch;
            firstBatch = null;
            if (!live()) return;
          }
          this.publishSoon(); // the new notes count as 'Decrypting N more...'
          for (let i = 0; i < fresh.length; i += this.batchSize) {
            inFlight.push(this.decryptBatchInBackground(fresh.slice(i, i + this.batchSize), live));
          }
        }
      }
      await Promise.all(inFlight);
      if (!live()) return;
      this.complete = true;
      this.status = 'ready';
      this.publish();
      mark('vault:notes-complete');
      this.settleWaiters();
    } catch (error) {
      await Promise.all(inFlight);
      if (!live()) return;
      const reason = messageOf(error, error instanceof Error ? error.message : 'Unknown error');
      this.error = `Failed to load notes: ${reason}`;
      if (this.order.length === 0) this.status = 'error';
      this.publish();
      this.settleWaiters(new Error(this.error));
    }
  }

  /** A later batch: decrypted in the worker, shown with the next coalesced publish. */
  private async decryptBatchInBackground(batch: readonly NoteDto[], live: () => boolean): Promise<void> {
    await this.decryptInto(batch);
    if (live()) this.publishSoon();
  }

  private publishTimer: ReturnType<typeof setTimeout> | null = null;
  private lastPublish = 0;

  /** Publishes now when the last publish is old enough, else once at the end of the interval. */
  private publishSoon(): void {
    if (this.disposed || this.publishTimer !== null) return;
    const wait = this.lastPublish + PUBLISH_INTERVAL_MS - Date.now();
    if (wait <= 0) {
      this.publish();
      return;
    }
    this.publishTimer = setTimeout(() => {
      this.publishTimer = null;
      this.publish();
    }, wait);
  }

  /** Adds a page's notes (skipping ids already known or deleted here); returns the new ones. */
  private append(notes: readonly NoteDto[]): NoteDto[] {
    const fresh: NoteDto[] = [];
    for (const sealed of notes) {
      if (this.entries.has(sealed.id) || this.removed.has(sealed.id)) continue;
      this.entries.set(sealed.id, { kind: 'pending', id: sealed.id, sealed });
      this.order.push(sealed.id);
      fresh.push(sealed);
    }
    return fresh;
  }

  private async decryptInto(all: readonly NoteDto[]): Promise<void> {
    // An older version than one already shown is refused before it is opened: it would open fine.
    const batch = this.freshness ? this.refuseRollbacks(all) : all;
    if (batch.length === 0) return;
    // The worker itself failed: every note of the batch is shown as failed, the rest go on.
    const outcomes = await outcomesOrFailed(batch, () => this.crypto.decryptBatch(this.vaultKey, batch));
    const byId = new Map(batch.map((n) => [n.id, n]));
    for (const outcome of outcomes) {
      const current = this.entries.get(outcome.id);
      const sealed = byId.get(outcome.id);
      // Edited or deleted meanwhile: the newer state wins.
      if (!current || current.kind !== 'pending' || !sealed || current.sealed !== sealed) continue;
      if (outcome.ok) {
        const note = toDecrypted(sealed, outcome.note);
        this.decrypted.set(sealed.id, note);
        this.entries.set(sealed.id, { kind: 'decrypted', id: sealed.id, sealed, note });
        this.freshness?.record(sealed.id, sealed.updatedAt);
      } else {
        this.entries.set(sealed.id, { kind: 'failed', id: sealed.id, sealed, error: outcome.error });
      }
    }
  }

  /** Marks the notes of `batch` older than a version seen before as failed; returns the others. */
  private refuseRollbacks(batch: readonly NoteDto[]): NoteDto[] {
    const fresh: NoteDto[] = [];
    for (const sealed of batch) {
      if (!this.freshness?.isRolledBack(sealed.id, sealed.updatedAt)) {
        fresh.push(sealed);
        continue;
      }
      const current = this.entries.get(sealed.id);
      if (current?.kind !== 'pending' || current.sealed !== sealed) continue;
      this.entries.set(sealed.id, {
        kind: 'failed',
        id: sealed.id,
        sealed,
        error: ROLLED_BACK_ERROR,
        rolledBack: true,
      });
    }
    return fresh;
  }

  private place(id: string): void {
    this.order = this.order.filter((x) => x !== id);
    const item = this.entries.get(id);
    if (!item) return;
    // Binary search for the first position whose item sorts after this one.
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const other = this.entries.get(this.order[mid]!);
      if (other && compareItems(other, item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    this.order.splice(lo, 0, id);
  }

  /** A note created or updated here: its sealed answer from the API and the plaintext that was sealed. */
  upsert(sealed: NoteDto, plain: NotePlain): DecryptedNote {
    const note = toDecrypted(sealed, plain);
    this.freshness?.record(sealed.id, sealed.updatedAt);
    this.removed.delete(sealed.id);
    this.decrypted.set(sealed.id, note);
    this.entries.set(sealed.id, { kind: 'decrypted', id: sealed.id, sealed, note });
    this.place(sealed.id);
    this.publish();
    return note;
  }

  /** Many notes created here at once (an import): one sort and one update for the lot. */
  upsertMany(list: ReadonlyArray<{ sealed: NoteDto; plain: NotePlain }>): void {
    if (list.length === 0) return;
    const known = new Set(this.order);
    for (const { sealed, plain } of list) {
      const note = toDecrypted(sealed, plain);
      this.freshness?.record(sealed.id, sealed.updatedAt);
      this.removed.delete(sealed.id);
      this.decrypted.set(sealed.id, note);
      this.entries.set(sealed.id, { kind: 'decrypted', id: sealed.id, sealed, note });
      if (!known.has(sealed.id)) {
        known.add(sealed.id);
        this.order.push(sealed.id);
      }
    }
    this.order.sort((a, b) => compareItems(this.entries.get(a)!, this.entries.get(b)!));
    this.publish();
  }

  /** A sealed note that came back (restored from the trash): decrypted, then placed by its date. */
  async insertSealed(sealed: NoteDto): Promise<void> {
    this.removed.delete(sealed.id);
    this.entries.set(sealed.id, { kind: 'pending', id: sealed.id, sealed });
    this.decrypted.delete(sealed.id);
    this.place(sealed.id);
    await this.decryptInto([sealed]);
    this.publish();
  }

  /** Deleted (moved to the trash) or gone. */
  remove(id: string): void {
    this.removed.add(id);
    this.entries.delete(id);
    this.decrypted.delete(id);
    this.order = this.order.filter((x) => x !== id);
    this.publish();
  }

  get(id: string): NoteItem | undefined {
    return this.entries.get(id);
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  setSearchQuery(query: string): void {
    if (query === this.searchQuery) return;
    this.searchQuery = query;
    this.publish(true);
  }

  toggleTag(tag: string): void {
    this.selectedTags = this.selectedTags.includes(tag)
      ? this.selectedTags.filter((t) => t !== tag)
      : [...this.selectedTags, tag];
    this.publish(true);
  }

  clearTags(): void {
    if (this.selectedTags.length === 0) return;
    this.selectedTags = [];
    this.publish(true);
  }

  /** Sign-out or a new vault key: forget every note and plaintext. */
  dispose(): void {
    this.disposed = true;
    if (this.publishTimer !== null) clearTimeout(this.publishTimer);
    this.publishTimer = null;
    this.generation++;
    this.entries.clear();
    this.decrypted.clear();
    this.order = [];
    this.reset(EMPTY_NOTES_SNAPSHOT);
    this.settleWaiters(new Error('The vault was locked'));
    const hooks = this.disposeHooks;
    this.disposeHooks = [];
    hooks.forEach((hook) => hook());
  }

  /** Runs `hook` when the store is disposed (at once when it already is). */
  onDispose(hook: () => void): void {
    if (this.disposed) hook();
    else this.disposeHooks.push(hook);
  }

  get isDisposed(): boolean {
    return this.disposed;
  }
}
