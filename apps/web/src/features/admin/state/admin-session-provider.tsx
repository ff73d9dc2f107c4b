import type { AdminSessionResponse } from '@vault/contracts';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryCache } from '../../../lib/query';
import {
  AdminSessionContextProvider,
  adminCan,
  getAdminSession,
  signOutAdmin,
  useAdminApi,
  type AdminSessionValue,
} from '../api/admin-api';

export const SESSION_ENDED_NOTICE = 'Your admin session has ended. Please sign in again.';

/** What the sign-in page reads from the navigation state (a notice, never a secret). */
export interface AdminLoginState {
  adminNotice?: string;
}

/**
 * The signed-in admin for the console. The idle deadline moves on with every answered admin call
 * (the server does the same), never past the session's hard end. A 401 from any admin call ends
 * the console: its cache is dropped and the sign-in shows again.
 */
export function AdminSessionProvider({
  session,
  readAt,
  children,
}: {
  session: AdminSessionResponse;
  /** When the session answer arrived (this device's clock). */
  readAt: number;
  children: ReactNode;
}) {
  const api = useAdminApi();
  const cache = useQueryCache();
  const navigate = useNavigate();
  const expiresAtMs = Date.parse(session.expiresAt);
  const [idleWindowMs, setIdleWindowMs] = useState(() =>
    Math.max(0, Date.parse(session.idleExpiresAt) - readAt),
  );
  const [idleExpiresAtMs, setIdleExpiresAtMs] = useState(() => Math.min(readAt + idleWindowMs, expiresAtMs));

  const end = useCallback(
    (notice?: string) => {
      cache.clear();
      const state: AdminLoginState | undefined = notice ? { adminNotice: notice } : undefined;
      void navigate('/admin/login', { replace: true, state });
    },
    [cache, navigate],
  );

  useEffect(() => api.onSessionEnd(() => end(SESSION_ENDED_NOTICE)), [api, end]);
  useEffect(
    () => api.onCall(() => setIdleExpiresAtMs(Math.min(Date.now() + idleWindowMs, expiresAtMs))),
    [api, idleWindowMs, expiresAtMs],
  );

  const signOut = useCallback(async () => {
    try {
      await signOutAdmin(api);
    } catch {
      // Signed out here whatever the answer: the cookie dies with its session on the server anyway.
    }
    end();
  }, [api, end]);

  const refresh = useCallback(async () => {
    const fresh = await getAdminSession(api);
    const at = Date.now();
    const windowMs = Math.max(0, Date.parse(fresh.idleExpiresAt) - at);
    setIdleWindowMs(windowMs);
    setIdleExpiresAtMs(Math.min(at + windowMs, expiresAtMs));
  }, [api, expiresAtMs]);

  const value = useMemo<AdminSessionValue>(
    () => ({
      admin: session.admin,
      expiresAt: session.expiresAt,
      idleExpiresAtMs,
      can: (permission) => adminCan(session.admin, permission),
      signOut,
      end,
      refresh,
    }),
    [session, idleExpiresAtMs, signOut, end, refresh],
  );
  return <AdminSessionContextProvider value={value}>{children}</AdminSessionContextProvider>;
}
