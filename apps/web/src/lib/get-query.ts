import type { z } from 'zod';
import type { ApiClient } from './api-client';
import { useApiClient } from './api-context';
import { parseResponse } from './parse-response';
import { useQuery } from './query';

/**
 * A GET whose answer is checked against its contract schema (`get`; `refuse` first, for a clearer
 * error than the schema's), and the hook that reads it
 * through the shared query cache under `queryKey` (what the invalidate helpers mark stale).
 */
export function defineGetQuery<S extends z.ZodType>(
  path: string,
  schema: S,
  queryKey: string,
  /** Runs on the raw answer before the schema: throws an error that says more than the schema's. */
  refuse?: (data: unknown) => void,
) {
  const get = async (api: ApiClient): Promise<z.output<S>> => {
    const data = await api.get<unknown>(path);
    refuse?.(data);
    return parseResponse(schema, data);
  };
  function useGetQuery(enabled = true) {
    const api = useApiClient();
    return useQuery({ queryKey, queryFn: () => get(api), enabled });
  }
  return { get, queryKey, use: useGetQuery };
}
