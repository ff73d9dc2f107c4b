import { useState, type ReactNode } from 'react';
import { ApiClientProvider, useApiClient } from '../../../lib/api-context';
import { QueryCache, QueryCacheProvider } from '../../../lib/query';
import { AdminApiClient } from '../api/admin-api';

/**
 * The admin console's client and a query cache of its own, over the app's providers: the user's
 * token is never sent to /api/admin, and what the console loaded is dropped with its cache (sign-out,
 * end of the session) without touching the vault's.
 */
export function AdminApiProvider({ children }: { children: ReactNode }) {
  const base = useApiClient();
  const [api] = useState(() => (base instanceof AdminApiClient ? base : AdminApiClient.from(base)));
  const [cache] = useState(() => new QueryCache());
  return (
    <ApiClientProvider client={api}>
      <QueryCacheProvider cache={cache}>{children}</QueryCacheProvider>
    </ApiClientProvider>
  );
}
