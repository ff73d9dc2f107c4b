import { useCallback, useEffect, useRef, useState } from 'react';

export interface CursorPage<T> {
  items: T[];
  nextCursor: string | null;
}

export interface CursorListState<T> {
  items: T[];
  /** The first page: loading, loaded, or failed (`error`). */
  status: 'loading' | 'ready' | 'error';
  error: unknown;
  /** A 'Load more' call runs, or failed (`moreError`; the loaded items stay). */
  loadingMore: boolean;
  moreError: unknown;
  hasMore: boolean;
}

const initial = <T>(): CursorListState<T> => ({
  items: [],
  status: 'loading',
  error: null,
  loadingMore: false,
  moreError: null,
  hasMore: false,
});

/**
 * A keyset-paged list with 'Load more' (the API's `nextCursor`): the first page whenever `key`
 * changes (new filters), the next ones on demand. An answer for an older key or an earlier
 * reload is dropped, so a slow page never lands in a list it no longer belongs to.
 */
export function useCursorList<T>(key: string, fetchPage: (cursor: string | null) => Promise<CursorPage<T>>) {
  const [state, setState] = useState<CursorListState<T>>(initial);
  const cursor = useRef<string | null>(null);
  const generation = useRef(0);
  // The latest fetchPage (it closes over the filters of this render); `key` says when they changed.
  const fetchRef = useRef(fetchPage);
  useEffect(() => {
    fetchRef.current = fetchPage;
  });

  const load = useCallback(async (more: boolean) => {
    const run = more ? generation.current : ++generation.current;
    if (!more) cursor.current = null;
    setState((s) => (more ? { ...s, loadingMore: true, moreError: null } : { ...initial<T>(), items: [] }));
    try {
      const page = await fetchRef.current(more ? cursor.current : null);
      if (run !== generation.current) return;
      cursor.current = page.nextCursor;
      setState((s) => ({
        ...s,
        items: more ? [...s.items, ...page.items] : page.items,
        status: 'ready',
        loadingMore: false,
        hasMore: page.nextCursor !== null,
      }));
    } catch (error) {
      if (run !== generation.current) return;
      setState((s) =>
        more ? { ...s, loadingMore: false, moreError: error } : { ...s, status: 'error', error },
      );
    }
  }, []);

  useEffect(() => {
    void load(false);
  }, [key, load]);

  const reload = useCallback(() => void load(false), [load]);
  const loadMore = useCallback(() => void load(true), [load]);
  /** Drops loaded items (a revoked session) without asking the server again. */
  const remove = useCallback((drop: (item: T) => boolean) => {
    setState((s) => ({ ...s, items: s.items.filter((item) => !drop(item)) }));
  }, []);

  return { ...state, reload, loadMore, remove };
}
