import {
  adminBulkResultSchema,
  adminEndedSessionsSchema,
  adminUserDetailsSchema,
  adminUserListSchema,
  adminUserResponseSchema,
  type AdminBulkAction,
  type AdminBulkResult,
  type AdminUserDetails,
  type AdminUserList,
  type Permission,
  type Role,
} from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';

/** The spec's user list: 10 a page (section 9). */
export const USERS_PAGE_SIZE = 10;

/** The spec's lock defaults (section 6): reason 'Manual admin lock', 60 minutes. */
export const LOCK_DEFAULTS = { reason: 'Manual admin lock', duration: 60 } as const;

export type UserStatusFilter = 'all' | 'locked' | 'admins' | 'no-2fa';

export interface UsersQuery {
  page: number;
  search: string;
  status: UserStatusFilter;
}

const userPath = (id: string, action?: string) =>
  `/admin/users/${encodeURIComponent(id)}${action ? `/${action}` : ''}`;

/** GET /api/admin/users?limit=10&offset=&search=&status= (users:read). */
export async function listUsers(
  api: ApiClient,
  { page, search, status }: UsersQuery,
): Promise<AdminUserList> {
  const query = new URLSearchParams({
    limit: String(USERS_PAGE_SIZE),
    offset: String(page * USERS_PAGE_SIZE),
  });
  if (search.trim()) query.set('search', search.trim());
  if (status !== 'all') query.set('status', status);
  return parseResponse(adminUserListSchema, await api.get(`/admin/users?${query}`));
}

/** GET /api/admin/users/:id: the account, its sessions, recent events and counts (users:read). */
export async function getUserDetails(api: ApiClient, id: string): Promise<AdminUserDetails> {
  return parseResponse(adminUserDetailsSchema, await api.get(userPath(id)));
}

/** POST .../lock {reason, duration minutes} (users:lock). */
export async function lockUser(api: ApiClient, id: string, body: { reason: string; duration: number }) {
  return parseResponse(adminUserResponseSchema, await api.post(userPath(id, 'lock'), body)).user;
}

/** POST .../unlock {reason?} (users:lock). */
export async function unlockUser(api: ApiClient, id: string, reason?: string) {
  return parseResponse(adminUserResponseSchema, await api.post(userPath(id, 'unlock'), reasonBody(reason)))
    .user;
}

/** POST .../remove-2fa {confirm: the username typed again, reason} (users:2fa). */
export async function removeTwoFactor(api: ApiClient, id: string, body: { confirm: string; reason: string }) {
  return parseResponse(adminUserResponseSchema, await api.post(userPath(id, 'remove-2fa'), body)).user;
}

/** POST .../end-sessions {reason?} (sessions:revoke): how many sessions ended. */
export async function endUserSessions(api: ApiClient, id: string, reason?: string) {
  return parseResponse(
    adminEndedSessionsSchema,
    await api.post(userPath(id, 'end-sessions'), reasonBody(reason)),
  ).ended;
}

/** PUT .../role {role, permissions, reason} (super_admin only). */
export async function setUserRole(
  api: ApiClient,
  id: string,
  body: { role: Role; permissions: Permission[]; reason: string },
) {
  return parseResponse(adminUserResponseSchema, await api.put(userPath(id, 'role'), body)).user;
}

/** POST /api/admin/users/bulk/{lock|unlock|end-sessions} {ids, reason?, duration?}: a result per account. */
export async function bulkUsers(
  api: ApiClient,
  action: AdminBulkAction,
  body: { ids: string[]; reason?: string; duration?: number },
): Promise<AdminBulkResult['results']> {
  const sent = {
    ids: body.ids,
    ...reasonBody(body.reason),
    ...(body.duration ? { duration: body.duration } : {}),
  };
  return parseResponse(adminBulkResultSchema, await api.post(`/admin/users/bulk/${action}`, sent)).results;
}

/** An optional reason is left out when blank (the server refuses an empty one). */
function reasonBody(reason: string | undefined): { reason?: string } {
  return reason?.trim() ? { reason: reason.trim() } : {};
}
