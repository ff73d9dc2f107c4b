import { noteCountsResponseSchema, type NoteCountsResponse } from '@vault/contracts';
import { useApiClient } from '../../../lib/api-context';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';
import { useQuery } from '../../../lib/query';

export type NoteCounts = NoteCountsResponse;

/**
 * GET /api/notes/counts → {active, deleted}: the server's count of notes in the vault and in the
 * trash (read through useNoteTotals, which every count on the screen uses). A failed call is an
 * error, not an empty answer: the query stays failed and stale, so Retry, the next successful load
 * of the notes or the next page asks again (the shell, app/layouts/vault-layout.tsx).
 */
export async function getNoteCounts(api: ApiClient): Promise<NoteCounts> {
  return parseResponse(noteCountsResponseSchema, await api.get<unknown>('/notes/counts'));
}

export const noteCountsQueryKey = 'notes/counts';

export function useNoteCounts(enabled = true) {
  const api = useApiClient();
  return useQuery({ queryKey: noteCountsQueryKey, queryFn: () => getNoteCounts(api), enabled });
}
