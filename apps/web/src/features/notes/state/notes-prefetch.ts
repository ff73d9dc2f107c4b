import type { NoteListResponse } from '@vault/contracts';
import { FIRST_PAGE_SIZE, NEXT_PAGE_SIZE, type NotesPageQuery } from '../api/get-notes';

/** Pages fetched ahead are used only this soon after the fetch began; older ones are fetched again. */
export const PREFETCH_MAX_AGE_MS = 60_000;

type FetchPage = (query: NotesPageQuery) => Promise<NoteListResponse>;

function keyOf(query: NotesPageQuery): string {
  return `${query.limit}:${query.cursor ?? ''}`;
}

/**
 * Fetches the sealed note pages while the unlock KDF runs (the pages are ciphertext, and fetching
 * them needs only the session, not the vault key), so that the notes store finds them already
 * there instead of starting its first request after the key is ready. Pages follow the store's
 * own sequence (first page FIRST_PAGE_SIZE, then NEXT_PAGE_SIZE following `nextCursor`), and each
 * one can be taken once; anything not taken is simply dropped with the prefetch.
 */
export class NotesPrefetch {
  private readonly pages = new Map<string, Promise<NoteListResponse>>();
  private stopped = false;
  readonly startedAt: number;

  constructor(
    readonly userId: string,
    private readonly fetchPage: FetchPage,
    private readonly now: () => number = Date.now,
    private readonly firstPageSize = FIRST_PAGE_SIZE,
    private readonly nextPageSize = NEXT_PAGE_SIZE,
  ) {
    this.startedAt = now();
    this.follow({ limit: this.firstPageSize, cursor: null });
  }

  private follow(query: NotesPageQuery): void {
    if (this.stopped) return;
    const page = this.fetchPage(query);
    this.pages.set(keyOf(query), page);
    page.then(
      (answer) => {
        if (answer.nextCursor && !this.stopped)
          this.follow({ limit: this.nextPageSize, cursor: answer.nextCursor });
      },
      () => undefined, // the store fetches this page itself when it gets to it
    );
  }

  /** The page fetched ahead for this query (once), or null when there is none or it is stale. */
  take(query: NotesPageQuery): Promise<NoteListResponse> | null {
    if (this.stopped) return null;
    if (this.now() - this.startedAt > PREFETCH_MAX_AGE_MS) {
      this.stop();
      return null;
    }
    const key = keyOf(query);
    const page = this.pages.get(key);
    if (!page) return null;
    this.pages.delete(key);
    return page;
  }

  /** No more pages are requested; those already fetched are dropped. */
  stop(): void {
    this.stopped = true;
    this.pages.clear();
  }
}
