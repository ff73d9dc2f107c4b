import { useEffect, useLayoutEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { FullPageSpinner } from '../../components/spinner';
import { useSession } from '../../lib/session/session-context';
import { useSessionSync } from '../../lib/session/use-session-sync';
import { useAppServices } from '../services';

/**
 * The root route: starts the session (saved user, stored key), shows the initialisation spinner
 * until it is ready, connects the router to code outside React, and follows other tabs.
 */
export function RootRoute() {
  const { session, navigation } = useAppServices();
  const { isInitialized } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const pathRef = useRef(location.pathname);

  useLayoutEffect(() => {
    pathRef.current = location.pathname;
  }, [location.pathname]);
  useLayoutEffect(() => {
    navigation.attach(
      (to) => void navigate(to, { replace: true }),
      () => pathRef.current,
    );
  }, [navigation, navigate]);
  useEffect(() => {
    void session.init();
  }, [session]);
  useSessionSync();

  if (!isInitialized) return <FullPageSpinner label="Loading your vault..." />;
  return <Outlet />;
}
