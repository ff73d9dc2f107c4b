import {
  adminActivitySchema,
  adminFailedScanListSchema,
  adminQueuedSchema,
  adminSessionResponseSchema,
  adminStatsSchema,
  auditListSchema,
  auditVerifySchema,
  hasPermission,
  systemHealthSchema,
  type AdminIdentity,
  type AdminSessionResponse,
  type Permission,
} from '@vault/contracts';
import { useCallback } from 'react';
import { ApiClient, isApiError, type ApiClientOptions, type RequestOptions } from '../../../lib/api-client';
import { useApiClient } from '../../../lib/api-context';
import { defineGetQuery } from '../../../lib/get-query';
import { parseResponse } from '../../../lib/parse-response';
import { useQuery } from '../../../lib/query';
import { createRequiredContext } from '../../../lib/required-context';

/**
 * The admin console's client for /api/admin (docs/api.md "Admin"). The admin session is the
 * HttpOnly `vault_admin` cookie scoped to /api/admin: no bearer token, no refresh, nothing kept
 * in localStorage or sessionStorage. A 401 from any admin call but the sign-in itself means the
 * session is over (expired, idle, ended elsewhere): the console shows the sign-in again.
 *
 * Inside the console (AdminSessionProvider) `useApiClient()` and `useQueryCache()` are this
 * client and a cache of the admin session's own, so `defineGetQuery` and `useQuery` work as
 * everywhere else, and signing out drops every admin answer with the cache.
 */
export const ADMIN_SESSION_PATH = '/admin/session';

export class AdminApiClient extends ApiClient {
  private readonly endListeners = new Set<() => void>();
  private readonly callListeners = new Set<() => void>();

  constructor(options: ApiClientOptions) {
    // No hooks: the user's access token is never sent to the admin API and never refreshed for it.
    super({ ...options });
  }

  /** A client of the same base URL and fetch as the app's client, without its session. */
  static from(base: ApiClient): AdminApiClient {
    return new AdminApiClient(base.sessionlessOptions());
  }

  /** `listener` runs when an admin call answers 401 (the admin session is over). */
  onSessionEnd(listener: () => void): () => void {
    this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  /** `listener` runs after each answered admin call (the server moved the idle deadline on). */
  onCall(listener: () => void): () => void {
    this.callListeners.add(listener);
    return () => this.callListeners.delete(listener);
  }

  override async request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    try {
      const data = await super.request<T>(path, options);
      if (path.startsWith('/admin/')) this.callListeners.forEach((l) => l());
      return data;
    } catch (error) {
      const signingIn = path === ADMIN_SESSION_PATH && options.method !== 'GET';
      if (isApiError(error, 401) && path.startsWith('/admin/') && !signingIn) {
        this.endListeners.forEach((l) => l());
      }
      throw error;
    }
  }
}

/** The admin client of the console (inside AdminSessionProvider, or the sign-in page's provider). */
export function useAdminApi(): AdminApiClient {
  const api = useApiClient();
  if (!(api instanceof AdminApiClient)) throw new Error('useAdminApi needs the admin console providers');
  return api;
}

// ---------------------------------------------------------------------------------------------
// The session

export type AdminSignInResult = { kind: 'session'; session: AdminSessionResponse } | { kind: 'requires2FA' };

/**
 * POST /api/admin/session with the authKey derived on this device (never the password). 401
 * INVALID_CREDENTIALS; 403 ADMIN_REQUIRED / ADMIN_2FA_REQUIRED; 423 {retryAfter}; 429.
 */
export async function signInAdmin(
  api: ApiClient,
  body: { identifier: string; authKey: string; totpCode?: string },
): Promise<AdminSignInResult> {
  const data = await api.post<unknown>(ADMIN_SESSION_PATH, body);
  if (typeof data === 'object' && data !== null && (data as { requires2FA?: unknown }).requires2FA === true) {
    return { kind: 'requires2FA' };
  }
  return { kind: 'session', session: parseResponse(adminSessionResponseSchema, data) };
}

/** GET /api/admin/session: who is signed in to the console (401 none, 403 not an admin). */
export async function getAdminSession(api: ApiClient): Promise<AdminSessionResponse> {
  return parseResponse(adminSessionResponseSchema, await api.get<unknown>(ADMIN_SESSION_PATH));
}

/** DELETE /api/admin/session (204): ends the session and clears the cookie. */
export async function signOutAdmin(api: ApiClient): Promise<void> {
  await api.delete<void>(ADMIN_SESSION_PATH);
}

// ---------------------------------------------------------------------------------------------
// Reads (query keys all start with 'admin:')

export const adminStatsQuery = defineGetQuery('/admin/stats', adminStatsSchema, 'admin:stats');
export const adminActivityQuery = defineGetQuery('/admin/activity', adminActivitySchema, 'admin:activity');
export const systemHealthQuery = defineGetQuery('/admin/system/health', systemHealthSchema, 'admin:health');
export const failedScansQuery = defineGetQuery(
  '/admin/scans/failed',
  adminFailedScanListSchema,
  'admin:scans',
);

/** GET /api/admin/audit, newest first; `before` pages on (the answer's nextBefore). */
export async function getAudit(api: ApiClient, before?: number, limit = 50) {
  const query = new URLSearchParams({ limit: String(limit) });
  if (before !== undefined) query.set('before', String(before));
  return parseResponse(auditListSchema, await api.get<unknown>(`/admin/audit?${query.toString()}`));
}

/** GET /api/admin/audit/verify: walks the hash chain; the first broken entry if any. */
export async function verifyAudit(api: ApiClient) {
  return parseResponse(auditVerifySchema, await api.get<unknown>('/admin/audit/verify'));
}

// ---------------------------------------------------------------------------------------------
// Scans

/** POST /api/admin/scans/:fileId/retry (scans:manage). */
export async function retryScan(api: ApiClient, fileId: string) {
  return parseResponse(
    adminQueuedSchema,
    await api.post<unknown>(`/admin/scans/${encodeURIComponent(fileId)}/retry`),
  );
}

/** POST /api/admin/scans/rescan-all {reason} (scans:manage): the number of files queued. */
export async function rescanAll(api: ApiClient, reason: string) {
  return parseResponse(adminQueuedSchema, await api.post<unknown>('/admin/scans/rescan-all', { reason }));
}

/**
 * A read of the admin API through the console's query cache: `key` names it (start it with
 * 'admin:' and put the parameters in it), `fn` calls the admin client.
 */
export function useAdminQuery<T>(key: string, fn: (api: AdminApiClient) => Promise<T>, enabled = true) {
  const api = useAdminApi();
  const queryFn = useCallback(() => fn(api), [api, fn]);
  return useQuery({ queryKey: key, queryFn, enabled });
}

// ---------------------------------------------------------------------------------------------
// Who is signed in

export interface AdminSessionValue {
  admin: AdminIdentity;
  /** When the session ends whatever happens (ISO). */
  expiresAt: string;
  /** When it ends unless used (epoch ms); each admin call moves it on. */
  idleExpiresAtMs: number;
  can(permission: Permission): boolean;
  /** DELETE the session, then show the sign-in. */
  signOut(): Promise<void>;
  /** The session is over (idle or expired here, or a 401): drop the console's data, show the sign-in. */
  end(notice?: string): void;
  /** Asks the server who is signed in again (which also moves the idle deadline on). */
  refresh(): Promise<void>;
}

const AdminSessionContext = createRequiredContext<AdminSessionValue>(
  'useAdminSession needs an AdminSessionProvider',
);

export const AdminSessionContextProvider = AdminSessionContext.Provider;

/** The signed-in admin, `can(permission)` and signOut (inside the console). */
export const useAdminSession = AdminSessionContext.use;

/** The permission check of the console (the server checks again on every call). */
export function adminCan(admin: AdminIdentity | null | undefined, permission: Permission): boolean {
  return hasPermission(admin, permission);
}
