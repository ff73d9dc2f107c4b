import { sessionListResponseSchema, type SessionDto } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { useApiClient } from '../../../lib/api-context';
import { parseResponse } from '../../../lib/parse-response';
import { useQuery } from '../../../lib/query';
import type { ChangedPasswordMaterial } from '../../../workers/crypto-service';

/** POST /api/auth/change-password → 204; the server signs out every other session. */
export async function changePassword(api: ApiClient, body: ChangedPasswordMaterial): Promise<void> {
  await api.post<void>('/auth/change-password', body);
}

/** GET /api/auth/sessions: the caller's own signed-in devices. */
export async function getSessions(api: ApiClient): Promise<SessionDto[]> {
  return parseResponse(sessionListResponseSchema, await api.get('/auth/sessions')).sessions;
}

/** DELETE /api/auth/sessions/{id} → 204: signs that device out. */
export async function revokeSession(api: ApiClient, id: string): Promise<void> {
  await api.delete<void>(`/auth/sessions/${encodeURIComponent(id)}`);
}

/** DELETE /api/auth/account {authKey} → 204: the account and everything in it, for good. */
export async function deleteAccount(api: ApiClient, authKey: string): Promise<void> {
  await api.request<void>('/auth/account', { method: 'DELETE', body: { authKey } });
}

export const sessionsQueryKey = 'settings/sessions';

export function useSessions() {
  const api = useApiClient();
  return useQuery({ queryKey: sessionsQueryKey, queryFn: () => getSessions(api) });
}
