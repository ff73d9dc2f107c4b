import { meResponseSchema, type MeResponse } from '@vault/contracts';
import type { ApiClient } from '../api-client';
import { useApiClient } from '../api-context';
import { parseResponse } from '../parse-response';
import { useQuery } from '../query';

/** GET /api/auth/me: the account ({createdAt, twoFactorEnabled, ...}) and its vault key material. */
export async function getMe(api: ApiClient): Promise<MeResponse> {
  return parseResponse(meResponseSchema, await api.get('/auth/me'));
}

export const meQueryKey = 'auth/me';

export function useMe(enabled = true) {
  const api = useApiClient();
  return useQuery({ queryKey: meQueryKey, queryFn: () => getMe(api), enabled });
}
