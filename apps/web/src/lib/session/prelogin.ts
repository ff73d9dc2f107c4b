import { preloginResponseSchema, type PreloginResponse } from '@vault/contracts';
import type { ApiClient } from '../api-client';
import { parseResponse } from '../parse-response';

/** POST /api/auth/prelogin: the account's salt and KDF parameters (a stable fake for unknown identifiers). */
export async function prelogin(api: ApiClient, identifier: string): Promise<PreloginResponse> {
  return parseResponse(preloginResponseSchema, await api.post('/auth/prelogin', { identifier }));
}
