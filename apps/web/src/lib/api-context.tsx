import type { ReactNode } from 'react';
import type { ApiClient } from './api-client';
import { createRequiredContext } from './required-context';

const ApiClientContext = createRequiredContext<ApiClient>('useApiClient needs an ApiClientProvider');

export function ApiClientProvider({ client, children }: { client: ApiClient; children: ReactNode }) {
  return <ApiClientContext.Provider value={client}>{children}</ApiClientContext.Provider>;
}

export const useApiClient = ApiClientContext.use;
