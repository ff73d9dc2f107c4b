import { FullPageSpinner } from '../../../components/spinner';
import { AdminLoadError } from '../components/admin-load-error';
import { AdminSessionProvider } from '../state/admin-session-provider';
import { useAdminGate } from '../state/use-admin-gate';
import { AdminShell } from './admin-shell';
import { AccessDenied, InsufficientPermissions } from './gate-panels';

/**
 * /admin: the gate (spec section 2). No admin session → 'Access Denied'; signed in without the
 * console's permission → 'Insufficient Permissions'; otherwise the console.
 */
export function AdminConsole() {
  const { state, reload } = useAdminGate();
  switch (state.kind) {
    case 'loading':
      return <FullPageSpinner label="Checking admin access..." />;
    case 'signed-out':
      return <AccessDenied />;
    case 'forbidden':
      return <InsufficientPermissions />;
    case 'error':
      return (
        <div className="gate">
          <div className="gate__card">
            <h1 className="gate__title">Admin Console</h1>
            <AdminLoadError error={state.error} onRetry={reload} />
          </div>
        </div>
      );
    case 'ready':
      return (
        <AdminSessionProvider session={state.session} readAt={state.readAt}>
          <AdminShell />
        </AdminSessionProvider>
      );
  }
}
