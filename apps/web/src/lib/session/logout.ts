import type { ApiClient } from '../api-client';

/** How long sign-out waits for the server before leaving anyway. */
export const LOGOUT_TIMEOUT_MS = 5000;

/** POST /api/auth/logout: ends the session on the server and clears the refresh cookie (204). */
export async function logout(api: ApiClient, timeoutMs = LOGOUT_TIMEOUT_MS): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    await api.post<void>('/auth/logout', undefined, { signal: controller.signal });
  } finally {
    clearTimeout(timer);
  }
}
