import { useEffect, useRef, useState } from 'react';
import type { NoteItem } from '../state/notes-store';
import { LOAD_MORE_THRESHOLD } from '../utils/limits';

/**
 * Load More Notes: the grid shows 50 cards, and 50 more at each Load More (waiting for the next
 * page when it is still on its way). A new search or tag selection starts again at 50. After Load
 * More, focus moves to the first newly shown card (keyboard users keep their place).
 */
export function useNotesPaging({
  shown,
  filterKey,
  filtersActive,
  complete,
  ready,
  knownTotal,
  loadMore: fetchMore,
}: {
  /** The cards the filters let through. */
  shown: NoteItem[];
  /** Changes with the search and the selected tags. */
  filterKey: string;
  filtersActive: boolean;
  /** Every page of notes has arrived. */
  complete: boolean;
  ready: boolean;
  /** The server's count of notes in the vault, when known. */
  knownTotal: number | undefined;
  loadMore: () => void;
}) {
  const [visibleCount, setVisibleCount] = useState(LOAD_MORE_THRESHOLD);
  const [lastFilterKey, setLastFilterKey] = useState(filterKey);
  const gridRef = useRef<HTMLDivElement>(null);
  const focusFrom = useRef<number | null>(null);
  if (lastFilterKey !== filterKey) {
    setLastFilterKey(filterKey);
    setVisibleCount(LOAD_MORE_THRESHOLD);
  }

  const page = shown.slice(0, visibleCount);
  const moreInMemory = shown.length > visibleCount;
  const moreOnTheWay = !complete && !filtersActive && (knownTotal === undefined || knownTotal > visibleCount);
  const showLoadMore = ready && (moreInMemory || moreOnTheWay);
  const waitingForMore = showLoadMore && !moreInMemory;

  useEffect(() => {
    const from = focusFrom.current;
    if (from === null || page.length <= from) return;
    focusFrom.current = null;
    const cards = gridRef.current?.querySelectorAll<HTMLElement>('.note-card');
    const target = cards?.[from]?.querySelector<HTMLElement>('button');
    target?.focus();
  }, [page.length]);

  const loadMore = () => {
    focusFrom.current = visibleCount;
    setVisibleCount((n) => n + LOAD_MORE_THRESHOLD);
    fetchMore();
  };

  const view: NotesPage = {
    page,
    showLoadMore,
    loadingMore: waitingForMore && page.length < visibleCount,
    outOf: filtersActive ? shown.length : Math.max(shown.length, knownTotal ?? 0),
    loadMore,
  };
  return { gridRef, view };
}

/** What the grid and Load More show (useNotesPaging). */
export interface NotesPage {
  page: NoteItem[];
  showLoadMore: boolean;
  /** Load More spins while the cards it asked for are still being fetched. */
  loadingMore: boolean;
  /** 'Showing n of m': with filters, the matches; without, the server's count when larger. */
  outOf: number;
  loadMore: () => void;
}
