import { PERMISSIONS, type AdminIdentity, type AdminSessionRow, type AdminUser } from '@vault/contracts';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { ApiClient } from '../../../lib/api-client';
import { ApiClientProvider } from '../../../lib/api-context';
import { FakeServer, readFakeRequest } from '../../../testing/fake-server';
import { adminCan, AdminSessionContextProvider, type AdminSessionValue } from '../api/admin-api';
import { AdminApiProvider } from '../state/admin-api-provider';

export const SUPER_ADMIN: AdminIdentity = {
  id: '0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a',
  email: 'root@example.org',
  username: 'root',
  role: 'super_admin',
  permissions: [...PERMISSIONS],
};

/** An `admin` with only `permissions`. */
export const adminWith = (...permissions: AdminIdentity['permissions']): AdminIdentity => ({
  id: '0b0b0b0b-0b0b-4b0b-8b0b-0b0b0b0b0b0b',
  email: 'helper@example.org',
  username: 'helper',
  role: 'admin',
  permissions,
});

export const userRow = (n: number, over: Partial<AdminUser> = {}): AdminUser => ({
  _id: `${String(n).padStart(8, '0')}-1111-4111-8111-111111111111`,
  email: `user${n}@example.org`,
  username: `user${n}`,
  role: 'user',
  permissions: [],
  accountLocked: false,
  accountLockedReason: null,
  lockedUntil: null,
  twoFactorEnabled: false,
  createdAt: '2026-10-01T08:00:00.000Z',
  lastLoginAt: '2026-11-20T08:00:00.000Z',
  failedLoginAttempts: 0,
  ...over,
});

export const sessionRow = (n: number, user: AdminUser = userRow(1)): AdminSessionRow => ({
  sessionId: `${String(n).padStart(8, '0')}-2222-4222-8222-222222222222`,
  userId: user._id,
  email: user.email,
  username: user.username,
  ipAddress: `203.0.113.${n}`,
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  createdAt: '2026-11-20T08:00:00.000Z',
  lastSeenAt: '2026-11-21T08:00:00.000Z',
  expiresAt: '2026-12-20T08:00:00.000Z',
});

/**
 * One console tab as the shell shows it (the admin client and cache, the signed-in admin, a
 * router at /admin?tab=…) over `server`. `urls` keeps each request's path and query, which the
 * FakeServer's records leave out.
 */
export function renderAdminTab(
  ui: ReactNode,
  {
    server,
    admin = SUPER_ADMIN,
    path = '/admin',
  }: { server: FakeServer; admin?: AdminIdentity; path?: string },
) {
  const urls: string[] = [];
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const { method, url } = readFakeRequest(input, init);
    urls.push(`${method} ${url.pathname}${url.search}`);
    return server.fetch(input, init);
  };
  const session: AdminSessionValue = {
    admin,
    expiresAt: '2099-01-01T00:00:00.000Z',
    idleExpiresAtMs: Date.now() + 3_600_000,
    can: (permission) => adminCan(admin, permission),
    signOut: async () => undefined,
    end: () => undefined,
    refresh: async () => undefined,
  };
  const router = createMemoryRouter(
    [
      {
        path: '/admin',
        element: (
          <ApiClientProvider client={new ApiClient({ fetch: fetch as typeof globalThis.fetch })}>
            <AdminApiProvider>
              <AdminSessionContextProvider value={session}>{ui}</AdminSessionContextProvider>
            </AdminApiProvider>
          </ApiClientProvider>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  const user = userEvent.setup();
  const view = render(<RouterProvider router={router} />);
  /** The requests to `path` (without the query), each as 'METHOD /path?query'. */
  const requested = (method: string, pathname: string) =>
    urls.filter((u) => u === `${method} ${pathname}` || u.startsWith(`${method} ${pathname}?`));
  return { ...view, user, router, server, urls, requested };
}

/** The query of a recorded 'METHOD /path?query' as an object. */
export const queryOf = (recorded: string | undefined): Record<string, string> =>
  Object.fromEntries(new URL(recorded?.split(' ')[1] ?? '/', 'http://localhost').searchParams);
