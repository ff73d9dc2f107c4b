import { Outlet } from 'react-router-dom';
import { AdminApiProvider } from './state/admin-api-provider';

/** The /admin routes' frame: the console's own client and cache, shared by the sign-in and the console. */
export function AdminRoot() {
  return (
    <AdminApiProvider>
      <Outlet />
    </AdminApiProvider>
  );
}
