import { useApiClient } from '../../../lib/api-context';
import type { ApiClient } from '../../../lib/api-client';
import { useQuery } from '../../../lib/query';

export interface NoteCounts {
  active: number;
  deleted: number;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/**
 * GET /api/notes/counts → {active, deleted}: the sidebar's All Notes and Trash counts. Null when
 * the route does not answer (the notes service is not deployed yet, or is down): the counts are
 * then simply not shown.
 */
export async function getNoteCounts(api: ApiClient): Promise<NoteCounts | null> {
  try {
    const data = await api.get<unknown>('/notes/counts');
    if (typeof data !== 'object' || data === null) return null;
    const { active, deleted } = data as Record<string, unknown>;
    return isCount(active) && isCount(deleted) ? { active, deleted } : null;
  } catch {
    return null;
  }
}

export const noteCountsQueryKey = 'notes/counts';

export function useNoteCounts(enabled = true) {
  const api = useApiClient();
  return useQuery({ queryKey: noteCountsQueryKey, queryFn: () => getNoteCounts(api), enabled });
}
