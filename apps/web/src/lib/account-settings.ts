import { accountSettingsSchema, type AccountSettings } from '@vault/contracts';
import type { ApiClient } from './api-client';
import { useApiClient } from './api-context';
import { parseResponse } from './parse-response';
import { useQuery } from './query';

/**
 * The account's settings (GET/PUT /api/auth/settings): shown and changed in Settings, and read by
 * every upload (the malware-fingerprint opt-in).
 */

/** GET /api/auth/settings → {malwareFingerprintCheck}. */
export async function getAccountSettings(api: ApiClient): Promise<AccountSettings> {
  return parseResponse(accountSettingsSchema, await api.get('/auth/settings'));
}

/** PUT /api/auth/settings {malwareFingerprintCheck} → the stored settings. */
export async function updateAccountSettings(
  api: ApiClient,
  settings: AccountSettings,
): Promise<AccountSettings> {
  const data = await api.put<unknown>('/auth/settings', settings);
  // A 204 (no body) means the server stored exactly what was sent.
  return data === undefined ? settings : parseResponse(accountSettingsSchema, data);
}

export const accountSettingsQueryKey = 'settings/account-settings';

export function useAccountSettings() {
  const api = useApiClient();
  return useQuery({ queryKey: accountSettingsQueryKey, queryFn: () => getAccountSettings(api) });
}
