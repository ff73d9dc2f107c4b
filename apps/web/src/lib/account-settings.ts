import { accountSettingsSchema, type AccountSettings } from '@vault/contracts';
import type { ApiClient } from './api-client';
import { defineGetQuery } from './get-query';
import { parseResponse } from './parse-response';

/**
 * The account's settings (GET/PUT /api/auth/settings): shown and changed in Settings, and read by
 * every upload (the malware-fingerprint opt-in).
 */

/** GET /api/auth/settings → {malwareFingerprintCheck}. */
const settings = defineGetQuery('/auth/settings', accountSettingsSchema, 'settings/account-settings');

export const getAccountSettings = settings.get;
export const accountSettingsQueryKey = settings.queryKey;
export const useAccountSettings = settings.use;

/** PUT /api/auth/settings {malwareFingerprintCheck} → the stored settings. */
export async function updateAccountSettings(
  api: ApiClient,
  settings: AccountSettings,
): Promise<AccountSettings> {
  const data = await api.put<unknown>('/auth/settings', settings);
  // A 204 (no body) means the server stored exactly what was sent.
  return data === undefined ? settings : parseResponse(accountSettingsSchema, data);
}
