import { adminEventListSchema, type AdminEventList } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';

/** The spec's event list: 20 a page (section 9). */
export const EVENTS_PAGE_SIZE = 20;

export interface EventFilters {
  type: string;
  userId: string;
  /** datetime-local values ('2026-11-20T08:30'), in the browser's time zone; '' for none. */
  from: string;
  to: string;
}

export const NO_EVENT_FILTERS: EventFilters = { type: '', userId: '', from: '', to: '' };

/** The filters as the API's query: empty ones left out, local times sent as ISO instants. */
export function eventsQuery(filters: EventFilters): URLSearchParams {
  const query = new URLSearchParams();
  if (filters.type) query.set('type', filters.type);
  if (filters.userId.trim()) query.set('userId', filters.userId.trim());
  for (const key of ['from', 'to'] as const) {
    const date = filters[key] ? new Date(filters[key]) : null;
    if (date && !Number.isNaN(date.getTime())) query.set(key, date.toISOString());
  }
  return query;
}

/** GET /api/admin/security/events?limit=20&cursor=&type=&userId=&from=&to= (security:read), newest first. */
export async function listSecurityEvents(
  api: ApiClient,
  filters: EventFilters,
  cursor: string | null,
): Promise<AdminEventList> {
  const query = eventsQuery(filters);
  query.set('limit', String(EVENTS_PAGE_SIZE));
  if (cursor) query.set('cursor', cursor);
  return parseResponse(adminEventListSchema, await api.get(`/admin/security/events?${query}`));
}

/** GET /api/admin/security/events.csv with the same filters: the CSV's text. */
export async function getSecurityEventsCsv(api: ApiClient, filters: EventFilters): Promise<string> {
  const query = eventsQuery(filters).toString();
  return api.get<string>(`/admin/security/events.csv${query ? `?${query}` : ''}`, { responseAs: 'text' });
}
