import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useApiClient } from '../api-context';
import { useQueryCache } from '../query';
import { logout } from './logout';
import { useSessionStore } from './session-context';

/**
 * Sign-out (spec section 4): the server call is made with the current token and cookie, the
 * state, keys (memory and IndexedDB) and cached data are cleared at once, and the app lands on
 * /login whether or not the call succeeded.
 */
export function useSignOut(): (notice?: string | null) => Promise<void> {
  const api = useApiClient();
  const session = useSessionStore();
  const cache = useQueryCache();
  const navigate = useNavigate();
  return useCallback(
    async (notice: string | null = null) => {
      // The request reads the token synchronously, before the state below is cleared.
      const call = logout(api);
      session.trackSignOut(call);
      await session.endSession(notice);
      cache.clear();
      navigate('/login', { replace: true });
      await call.catch(() => undefined);
    },
    [api, session, cache, navigate],
  );
}
