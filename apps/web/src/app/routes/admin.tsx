import type { RouteObject } from 'react-router-dom';
import { FullPageSpinner } from '../../components/spinner';

// The console is for a few people: its code loads when an /admin route opens, not with the vault.
const loadAdmin = () => import('../../features/admin/admin-entry');

/**
 * /admin (the gate, then the console) and /admin/login, reachable signed in or not: the admin
 * session is its own HttpOnly cookie, independent of the vault's (spec section 2).
 */
export const adminRoute: RouteObject = {
  path: 'admin',
  hydrateFallbackElement: <FullPageSpinner label="Loading the admin console..." />,
  lazy: async () => ({ Component: (await loadAdmin()).AdminRoot }),
  children: [
    { index: true, lazy: async () => ({ Component: (await loadAdmin()).AdminConsole }) },
    { path: 'login', lazy: async () => ({ Component: (await loadAdmin()).AdminLoginPage }) },
  ],
};
