import { ownEventListSchema, type OwnEventList } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';

/** Events per page of "Recent security activity". */
export const OWN_EVENTS_PAGE = 20;

/** GET /api/auth/security-events: the caller's own security events, newest first, keyset-paged. */
export async function getOwnSecurityEvents(api: ApiClient, cursor: string | null): Promise<OwnEventList> {
  const query = new URLSearchParams({ limit: String(OWN_EVENTS_PAGE) });
  if (cursor) query.set('cursor', cursor);
  return parseResponse(ownEventListSchema, await api.get(`/auth/security-events?${query}`));
}
