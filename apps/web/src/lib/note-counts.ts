import { noteCountsResponseSchema, type NoteCountsResponse } from '@vault/contracts';
import type { ApiClient } from './api-client';
import { useApiClient } from './api-context';
import { parseResponse } from './parse-response';
import { useQuery } from './query';

export type NoteCounts = NoteCountsResponse;

/**
 * GET /api/notes/counts → {active, deleted}: the server's count of notes in the vault and in the
 * trash, shared by the notes feature (useNoteTotals, which every notes count on the screen uses)
 * and Settings' Account tab ('Total notes'). A failed call is an error, not an empty answer: the
 * query stays failed and stale, so Retry, the next successful load of the notes or the next page
 * asks again (the shell, app/layouts/vault-layout.tsx).
 */
export async function getNoteCounts(api: ApiClient): Promise<NoteCounts> {
  return parseResponse(noteCountsResponseSchema, await api.get<unknown>('/notes/counts'));
}

export const noteCountsQueryKey = 'notes/counts';

export function useNoteCounts(enabled = true) {
  const api = useApiClient();
  return useQuery({ queryKey: noteCountsQueryKey, queryFn: () => getNoteCounts(api), enabled });
}
