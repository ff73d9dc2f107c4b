import { fileCountsResponseSchema, type FileCountsResponse } from '@vault/contracts';
import { useApiClient } from '../../../lib/api-context';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';
import { useQuery } from '../../../lib/query';

/**
 * GET /api/files/counts → {active, deleted, bytes}: the sidebar's Trash count includes the
 * deleted files. A failed call is an error (the query stays failed and stale, and is asked again by
 * Retry, the next successful load or the next page), never an answer of nothing: the Trash count
 * then leaves the files out until it answers.
 */
export async function getFileCounts(api: ApiClient): Promise<FileCountsResponse> {
  return parseResponse(fileCountsResponseSchema, await api.get<unknown>('/files/counts'));
}

export const fileCountsQueryKey = 'files/counts';

export function useFileCounts(enabled = true) {
  const api = useApiClient();
  return useQuery({ queryKey: fileCountsQueryKey, queryFn: () => getFileCounts(api), enabled });
}
