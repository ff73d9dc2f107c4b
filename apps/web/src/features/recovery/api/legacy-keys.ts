import { z } from 'zod';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';

const legacyKeySchema = z.object({
  id: z.string(),
  wrappedVaultKey: z.string(),
  salt: z.string(),
  kdfParams: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
const legacyKeysSchema = z.object({ keys: z.array(legacyKeySchema) });

/** A vault key from before an access reset, still wrapped under the old password. */
export type LegacyKey = z.infer<typeof legacyKeySchema>;

/** GET /api/auth/legacy-keys → {keys}: empty unless an access reset made a new vault key. */
export async function getLegacyKeys(api: ApiClient, signal?: AbortSignal): Promise<LegacyKey[]> {
  const data = await api.get<unknown>('/auth/legacy-keys', signal ? { signal } : {});
  return parseResponse(legacyKeysSchema, data).keys;
}

/** DELETE /api/auth/legacy-keys/{id}: once every item it opened is re-wrapped under the current key. */
export async function deleteLegacyKey(api: ApiClient, id: string): Promise<void> {
  await api.delete(`/auth/legacy-keys/${encodeURIComponent(id)}`);
}
