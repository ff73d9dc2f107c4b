import { fileCountsResponseSchema, type FileCountsResponse } from '@vault/contracts';
import { useApiClient } from '../../../lib/api-context';
import type { ApiClient } from '../../../lib/api-client';
import { useQuery } from '../../../lib/query';

/**
 * GET /api/files/counts → {active, deleted, bytes}: the sidebar's Trash count includes the
 * deleted files. Null when the route does not answer (no files service deployed, or it is down):
 * the counts then leave the files out rather than fail.
 */
export async function getFileCounts(api: ApiClient): Promise<FileCountsResponse | null> {
  try {
    const parsed = fileCountsResponseSchema.safeParse(await api.get<unknown>('/files/counts'));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const fileCountsQueryKey = 'files/counts';

export function useFileCounts(enabled = true) {
  const api = useApiClient();
  return useQuery({ queryKey: fileCountsQueryKey, queryFn: () => getFileCounts(api), enabled });
}
