import { noteListResponseSchema, type NoteListResponse } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';

/** The first screen's page: the spec's load-more threshold (section 9), so the first cards come from one small call. */
export const FIRST_PAGE_SIZE = 50;
/** Later pages: the API's maximum (a page may still hold fewer; follow `nextCursor` until null). */
export const NEXT_PAGE_SIZE = 500;

export interface NotesPageQuery {
  limit: number;
  cursor?: string | null;
}

/**
 * GET /api/notes?limit=&cursor= → {notes, nextCursor}: active notes, newest `updatedAt` first,
 * sealed. The notes store (state/notes-store.ts) pages through it and decrypts in batches.
 */
export async function getNotesPage(
  api: ApiClient,
  query: NotesPageQuery,
  signal?: AbortSignal,
): Promise<NoteListResponse> {
  const params = new URLSearchParams({ limit: String(query.limit) });
  if (query.cursor) params.set('cursor', query.cursor);
  const data = await api.get<unknown>(`/notes?${params.toString()}`, signal ? { signal } : {});
  return parseResponse(noteListResponseSchema, data);
}

export const notesQueryKey = 'notes/list';
