import { noteCountsQueryKey } from '../../../lib/note-counts';
import type { QueryCache } from '../../../lib/query';

/** The trash's query key for deleted notes (get-deleted-notes.ts). */
export const deletedNotesQueryKey = 'notes/deleted';

/**
 * After any change to notes: the sidebar's All Notes / Trash counts (GET /api/notes/counts,
 * read by the shell through the query cache) and the trash list are refetched where shown, and
 * marked stale elsewhere.
 */
export function notesChanged(cache: QueryCache, { trash = true }: { trash?: boolean } = {}): void {
  cache.invalidate(noteCountsQueryKey);
  if (trash) cache.invalidate(deletedNotesQueryKey);
}
