import { legacyKeysResponseSchema, type LegacyKeyDto } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';

/** A vault key from before an access reset, still wrapped under the old password. */
export type LegacyKey = LegacyKeyDto;

/** GET /api/auth/legacy-keys → {keys}: empty unless an access reset made a new vault key. */
export async function getLegacyKeys(api: ApiClient, signal?: AbortSignal): Promise<LegacyKey[]> {
  const data = await api.get<unknown>('/auth/legacy-keys', signal ? { signal } : {});
  return parseResponse(legacyKeysResponseSchema, data).keys;
}

/** DELETE /api/auth/legacy-keys/{id}: once every item it opened is re-wrapped under the current key. */
export async function deleteLegacyKey(api: ApiClient, id: string): Promise<void> {
  await api.delete(`/auth/legacy-keys/${encodeURIComponent(id)}`);
}
