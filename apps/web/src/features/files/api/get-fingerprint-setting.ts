import type { AccountSettings } from '@vault/contracts';
import { accountSettingsQueryKey, getAccountSettings } from '../../../lib/account-settings';
import { isApiError, type ApiClient } from '../../../lib/api-client';
import type { QueryCache } from '../../../lib/query';

/**
 * Whether the account opted in to the malware-fingerprint check (GET /api/auth/settings), read
 * as each upload starts. It goes through the session's query cache under the Settings page's key:
 * one request per session, and a fresh one after the Settings toggle (which invalidates that key)
 * or sign-out (which clears the cache). A server without the setting (404) means off; any other
 * failure is thrown, so an opted-in account never uploads without the check it asked for.
 */
export async function readFingerprintSetting(api: ApiClient, cache: QueryCache): Promise<boolean> {
  await cache.fetch(accountSettingsQueryKey, () => getAccountSettings(api));
  const state = cache.getState<AccountSettings>(accountSettingsQueryKey);
  if (state.data) return state.data.malwareFingerprintCheck;
  if (isApiError(state.error, 404)) return false;
  throw state.error ?? new Error('Could not read the malware-check setting');
}
