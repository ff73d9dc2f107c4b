import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { UnlockScreen } from '../../features/auth/components/unlock-screen';
import { prefetchNotes } from '../../features/notes/state/notes-registry';
import { SignedInSession } from '../../features/session/components/signed-in-session';
import { useApiClient } from '../../lib/api-context';
import { useSession, useSessionStore } from '../../lib/session/session-context';

/** /login, /register, /recovery: signed-out only; a signed-in user goes to /vault. */
export function PublicOnlyRoute() {
  const { user } = useSession();
  if (user) return <Navigate to="/vault" replace />;
  return <Outlet />;
}

/**
 * Protected routes: no user → /login. A user whose vault key is not in memory (after a reload)
 * sees the unlock step first; the sealed notes download while it stretches the password (see
 * prefetchNotes). The inactivity timer runs for every signed-in user.
 */
export function ProtectedRoute() {
  const { user, vaultKey } = useSession();
  const session = useSessionStore();
  const api = useApiClient();
  const location = useLocation();
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return (
    <SignedInSession>
      {vaultKey ? <Outlet /> : <UnlockScreen onUnlockStart={() => prefetchNotes(session, api)} />}
    </SignedInSession>
  );
}
