import { adminSessionListSchema, type AdminSessionList } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';

export const SESSIONS_PAGE_SIZE = 50;

/** GET /api/admin/sessions?limit=&cursor=&userId= (sessions:read): every account's sessions, keyset-paged. */
export async function listAdminSessions(
  api: ApiClient,
  { cursor, userId }: { cursor: string | null; userId?: string },
): Promise<AdminSessionList> {
  const query = new URLSearchParams({ limit: String(SESSIONS_PAGE_SIZE) });
  if (cursor) query.set('cursor', cursor);
  if (userId) query.set('userId', userId);
  return parseResponse(adminSessionListSchema, await api.get(`/admin/sessions?${query}`));
}

/** DELETE /api/admin/sessions/:id → 204 (sessions:revoke): that device is signed out. */
export async function revokeAdminSession(api: ApiClient, sessionId: string): Promise<void> {
  await api.delete<void>(`/admin/sessions/${encodeURIComponent(sessionId)}`);
}
