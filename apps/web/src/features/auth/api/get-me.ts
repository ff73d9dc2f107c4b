import { meResponseSchema, type MeResponse } from '@vault/contracts';
import { useApiClient } from '../../../lib/api-context';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';
import { useQuery } from '../../../lib/query';

/** GET /api/auth/me: the account ({createdAt, twoFactorEnabled, ...}) and its vault key material. */
export async function getMe(api: ApiClient): Promise<MeResponse> {
  return parseResponse(meResponseSchema, await api.get('/auth/me'));
}

export const meQueryKey = 'auth/me';

export function useMe(enabled = true) {
  const api = useApiClient();
  return useQuery({ queryKey: meQueryKey, queryFn: () => getMe(api), enabled });
}
